// The npu backend's init on the self-contained blob of a genuine ExecuTorch program
// (tests/runtime/pte_socsim/convnet_npu.pte): the blob as exported is accepted, each field the
// backend checks is refused by name when it is wrong, and every truncation and a few thousand
// bit flips of its header and descriptors are refused, or accepted with every address slot a
// call tensor, a constant or scratch (under ASan/UBSan in scripts/test.sh --sanitize).
#include <gtest/gtest.h>
#include <stdint.h>
#include <string.h>

#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "firmware/abi/generated/npu_descriptor.h"
#include "firmware/delegates/npu/npu_backend.h"
#include "firmware/runtime/backend_registry.h"

namespace socsim {
namespace {

using runtime::Error;

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

uint32_t u32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

// The self-contained blob inside the program: from its magic to the end of its constants.
std::vector<uint8_t> blob_of(const std::vector<uint8_t>& pte) {
  for (size_t at = 0; at + 48 <= pte.size(); ++at) {
    if (memcmp(&pte[at], npu::kBlobMagic, 4) == 0 &&
        u32(&pte[at + 4]) == npu::kBlobVersionSelfContained) {
      const uint8_t* p = &pte[at + npu::npu_blob_header::kSize];
      const size_t end = u32(p + npu::npu_blob_placement::kConstantsOffset) +
                         static_cast<size_t>(u32(p + npu::npu_blob_placement::kConstantsSize));
      if (at + end <= pte.size()) return std::vector<uint8_t>(&pte[at], &pte[at] + end);
    }
  }
  return {};
}

class NpuBlobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    blob_ = blob_of(read_file(std::string(SOCSIM_PTE_SOCSIM_DIR) + "/convnet_npu.pte"));
    ASSERT_FALSE(blob_.empty()) << "no self-contained npu blob in convnet_npu.pte";
    backend_ = runtime::find_backend(delegates::kNpuExecutorchBackendId,
                                     strlen(delegates::kNpuExecutorchBackendId));
    ASSERT_NE(backend_, nullptr);
  }

  // init() on a 16-byte aligned copy of `bytes` (as the program's segments are aligned).
  Error init(const std::vector<uint8_t>& bytes, const char** detail) {
    copy_.assign(bytes.size() + 16, 0);
    uint8_t* at = copy_.data() + (16 - reinterpret_cast<uintptr_t>(copy_.data()) % 16) % 16;
    if (!bytes.empty()) memcpy(at, bytes.data(), bytes.size());  // (no source when empty)
    pool_.assign(1 << 20, 0);
    runtime::MemoryAllocator alloc(pool_.data(), pool_.size());
    runtime::BackendInitContext context;
    context.method_allocator = &alloc;
    *detail = nullptr;
    context.detail = detail;
    void* handle = nullptr;
    const Error e = backend_->init(context, at, bytes.size(), &handle);
    if (e == Error::kOk) {
      EXPECT_NE(handle, nullptr);
    }
    return e;
  }

  std::vector<uint8_t> blob_, copy_, pool_;
  const runtime::Backend* backend_ = nullptr;
};

TEST_F(NpuBlobTest, ExportedBlobIsAccepted) {
  const char* detail;
  EXPECT_EQ(init(blob_, &detail), Error::kOk) << (detail ? detail : "");
}

TEST_F(NpuBlobTest, EachCheckedFieldIsNamed) {
  namespace place = npu::npu_blob_placement;
  const uint32_t p = npu::npu_blob_header::kSize;
  const uint32_t d0 = u32(&blob_[p + place::kDescriptorsOffset]);
  struct Case {
    uint32_t offset;
    uint32_t value;
    const char* field;
  };
  const Case cases[] = {
      {0, 0x31555058u, "npu blob magic"},
      {4, 3, "npu blob version"},
      {12, 100, "npu blob descriptor_size"},
      {8, 0, "npu blob layer_count"},
      {p + place::kInputCount, 0, "npu blob input_count/output_count"},
      {p + place::kOutputCount, 256, "npu blob input_count/output_count"},
      {p + place::kDescriptorsOffset, 64, "npu blob descriptors_offset"},
      {p + place::kConstantsOffset, 48, "npu blob constants_offset"},
      {p + place::kConstantsSize, u32(&blob_[p + place::kConstantsSize]) + 16,
       "npu blob constants_size"},
      {p + place::kScratchAlignment, 24, "npu blob scratch_alignment"},
      {p + place::kReserved, 1, "npu blob reserved"},
      {d0 + 0, 0xEE, "npu descriptor op"},
      {d0 + 4, 0xEE, "npu descriptor post_op"},
      {d0 + 8 + 4 * npu::kAddrOutput, 0u, "npu descriptor addr.output (a call input)"},
      {d0 + 8 + 4 * npu::kAddrWeights, 0x40000000u | 0x3FFFFFF0u,
       "npu descriptor addr (constant offset)"},
      {d0 + 8 + 4 * npu::kAddrWeights, 0xC0000000u, "npu descriptor addr (kind)"},
      {d0 + 8 + 4 * npu::kAddrInput, 0xFFFFFFFFu, "npu descriptor addr (input/output missing)"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> bad = blob_;
    if (c.offset == d0 + 0) {
      bad[c.offset] = static_cast<uint8_t>(c.value);
    } else {
      memcpy(&bad[c.offset], &c.value, 4);
    }
    const char* detail;
    EXPECT_EQ(init(bad, &detail), Error::kDelegateInitFailed) << c.field;
    EXPECT_STREQ(detail ? detail : "(none)", c.field);
  }
}

TEST_F(NpuBlobTest, TruncationsAndBitFlipsAreRefusedOrStayInside) {
  const char* detail;
  for (size_t n = 0; n < blob_.size(); ++n) {
    std::vector<uint8_t> cut(blob_.begin(), blob_.begin() + n);
    EXPECT_NE(init(cut, &detail), Error::kOk) << "truncated to " << n;
  }
  std::mt19937 rng(7);
  int accepted = 0;
  const uint32_t descriptors_end = 48 + u32(&blob_[8]) * npu::kDescriptorSize;
  for (int i = 0; i < 4000; ++i) {
    std::vector<uint8_t> bad = blob_;
    const size_t at = rng() % descriptors_end;  // the header and descriptors
    bad[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    const Error e = init(bad, &detail);
    if (e != Error::kOk) {
      EXPECT_TRUE(e == Error::kDelegateInitFailed || e == Error::kMemoryAllocationFailed);
      continue;
    }
    ++accepted;  // a flip in a shape, argument or name: every placed address stays inside
    for (uint32_t k = 0; k < u32(&bad[8]); ++k) {
      npu::LayerDescriptor d;
      memcpy(&d, &bad[48 + k * npu::kDescriptorSize], sizeof d);
      for (uint32_t slot = 0; slot < npu::kAddrCount; ++slot) {
        const uint32_t v = d.addr[slot];
        if (v == npu::kNoTensor || (v >> npu::kAddrKindShift) == npu::kAddrKindCall) continue;
        EXPECT_TRUE((v >> npu::kAddrKindShift) == npu::kAddrKindConstant ||
                    (v >> npu::kAddrKindShift) == npu::kAddrKindScratch);
      }
    }
  }
  EXPECT_GT(accepted, 0);  // shapes and arguments are the NPU model's to check at run time
}

}  // namespace
}  // namespace socsim
