#include "models/cpu/rtl/bare_harness.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ostream>

namespace socsim {
namespace {

constexpr uint32_t kConsole = 0x1000'0000;
constexpr uint32_t kTestStatus = 0x2000'0000;
constexpr uint32_t kExitValue = 0x2000'0004;
constexpr uint32_t kIrqMask = 0x1500'0000;
constexpr uint32_t kIrqCountdown = 0x1500'0004;
constexpr uint32_t kCycleCount = 0x1500'1004;
constexpr uint32_t kDebugBase = 0x1A11'0800;
constexpr uint32_t kDebugSize = 16u << 10;
constexpr uint32_t kTestPassed = 123456789;

}  // namespace

BareHarness::BareHarness(const BareHarnessOptions& options)
    : options_(options),
      ram_(kRamSize, 0),
      core_(RtlCoreConfig{kBootAddr, 0, 0, kDebugBase, 0}),
      rng_(options.seed) {}

bool BareHarness::load_elf(const std::string& path, std::string* error) {
  if (elf_version(EV_CURRENT) == EV_NONE) {
    *error = "libelf initialisation failed";
    return false;
  }
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  bool ok = false;
  GElf_Ehdr ehdr;
  size_t phnum = 0;
  if (elf == nullptr || elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &ehdr) == nullptr) {
    *error = path + ": not an ELF file";
  } else if (gelf_getclass(elf) != ELFCLASS32 || ehdr.e_machine != EM_RISCV) {
    *error = path + ": not a 32-bit RISC-V ELF file";
  } else if (elf_getphdrnum(elf, &phnum) != 0) {
    *error = path + ": cannot read program headers";
  } else {
    ok = true;
    for (size_t i = 0; i < phnum && ok; ++i) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf, static_cast<int>(i), &ph) == nullptr || ph.p_type != PT_LOAD ||
          ph.p_memsz == 0) {
        continue;
      }
      if (ph.p_paddr + ph.p_memsz > kRamSize || ph.p_filesz > ph.p_memsz) {
        *error = path + ": segment " + std::to_string(i) + " does not fit in the 4 MiB RAM";
        ok = false;
        break;
      }
      std::memset(&ram_[ph.p_paddr], 0, ph.p_memsz);
      if (pread(fd, &ram_[ph.p_paddr], ph.p_filesz, static_cast<off_t>(ph.p_offset)) !=
          static_cast<ssize_t>(ph.p_filesz)) {
        *error = path + ": truncated segment " + std::to_string(i);
        ok = false;
      }
    }
  }
  if (elf != nullptr) {
    elf_end(elf);
  }
  close(fd);
  return ok;
}

void BareHarness::write_words(uint32_t addr, const std::vector<uint32_t>& words) {
  for (uint32_t w : words) {
    std::memcpy(&ram_[addr % kRamSize], &w, 4);
    addr += 4;
  }
}

uint32_t BareHarness::read_word(uint32_t addr) const {
  uint32_t w;
  std::memcpy(&w, &ram_[(addr & ~3u) % kRamSize], 4);
  return w;
}

void BareHarness::push(ObiResponseQueue& q, uint64_t now, uint32_t data) {
  uint64_t due = now + 1;
  if (options_.random_waits) {
    due += rng_() % 3;
  }
  q.push(due, data);
}

uint32_t BareHarness::data_read(uint32_t addr) {
  if (addr < kRamSize) {
    return read_word(addr);
  }
  if (addr - kDebugBase < kDebugSize) {
    return read_word(kRamSize - kDebugSize + (addr - kDebugBase));
  }
  if (addr == kCycleCount) {
    return static_cast<uint32_t>(now_ - cycle_base_);
  }
  return 0;
}

void BareHarness::data_write(uint32_t addr, uint32_t wdata, uint8_t be) {
  uint32_t ram_addr = addr;
  if (addr - kDebugBase < kDebugSize) {
    ram_addr = kRamSize - kDebugSize + (addr - kDebugBase);
  }
  if (ram_addr < kRamSize) {
    for (int i = 0; i < 4; ++i) {
      if (be & (1u << i)) {
        ram_[ram_addr + i] = static_cast<uint8_t>(wdata >> (8 * i));
      }
    }
    return;
  }
  switch (addr) {
    case kConsole:
      if (options_.console != nullptr) {
        options_.console->put(static_cast<char>(wdata & 0xFF));
      }
      break;
    case kTestStatus:
      if (wdata == kTestPassed || wdata == 1) {
        exited_ = true;
        exit_value_ = (wdata == kTestPassed) ? 0 : 1;
      }
      break;
    case kExitValue:
      exited_ = true;
      exit_value_ = wdata;
      break;
    case kCycleCount:
      cycle_base_ = now_;
      break;
    case kIrqMask:
      irq_mask_ = wdata;
      irq_at_ = 0;
      core_.set_irq(0);
      break;
    case kIrqCountdown:
      irq_at_ = wdata == 0 ? 0 : now_ + wdata;
      break;
    default:
      break;  // unmapped: dropped
  }
}

void BareHarness::trace_bus(const ObiRequest& ir, bool igrant, const ObiRequest& dr,
                            bool dgrant) {
  char line[96];
  if (ir.req && igrant) {
    std::snprintf(line, sizeof line, "%" PRIu64 " I %08x\n", now_, ir.addr & ~3u);
    *options_.bus_trace << line;
  }
  if (dr.req && dgrant) {
    if (dr.we) {
      std::snprintf(line, sizeof line, "%" PRIu64 " D W %08x %x %08x\n", now_, dr.addr & ~3u,
                    dr.be, dr.wdata);
    } else {
      std::snprintf(line, sizeof line, "%" PRIu64 " D R %08x %x\n", now_, dr.addr & ~3u, dr.be);
    }
    *options_.bus_trace << line;
  }
}

bool BareHarness::check_stable(PendingRequest& pending, const ObiRequest& now, bool gnt) {
  if (pending.waiting &&
      (!now.req || now.addr != pending.request.addr || now.we != pending.request.we ||
       (now.we && (now.wdata != pending.request.wdata || now.be != pending.request.be)))) {
    return false;
  }
  pending.waiting = now.req && !gnt;
  pending.request = now;
  return true;
}

RunResult BareHarness::run() {
  core_.reset();
  instr_q_ = ObiResponseQueue{};
  data_q_ = ObiResponseQueue{};
  now_ = 0;
  cycle_base_ = 0;
  exited_ = false;
  irq_mask_ = 0;
  irq_at_ = 0;
  RunResult result;
  const bool random = options_.random_waits;
  PendingRequest instr_pending;
  PendingRequest data_pending;

  while (now_ < options_.max_cycles) {
    if (irq_at_ != 0 && now_ == irq_at_) {
      core_.set_irq(irq_mask_);
    }
    ObiInputs iin;
    ObiInputs din;
    iin.gnt = random ? (rng_() & 3) != 0 : true;
    din.gnt = random ? (rng_() & 3) != 0 : true;
    iin.rvalid = instr_q_.pop_due(now_, &iin.rdata);
    din.rvalid = data_q_.pop_due(now_, &din.rdata);
    core_.begin_cycle(iin, din);

    const ObiRequest ir = core_.instr_request();
    const ObiRequest dr = core_.data_request();
    if (random && !check_stable(instr_pending, ir, iin.gnt)) {
      result.protocol_error = "instruction request withdrawn or changed before its grant";
      break;
    }
    if (random && !check_stable(data_pending, dr, din.gnt)) {
      result.protocol_error = "data request withdrawn or changed before its grant";
      break;
    }
    if (options_.bus_trace != nullptr) trace_bus(ir, iin.gnt, dr, din.gnt);
    if (ir.req && iin.gnt) {
      result.last_pc = ir.addr;
      push(instr_q_, now_, read_word(ir.addr));
    }
    if (dr.req && din.gnt) {
      // OBI: the byte enables select lanes of the word at addr & ~3; the address itself may
      // carry the offset of the first enabled byte (the CV32E40P's does).
      const uint32_t word_addr = dr.addr & ~3u;
      uint32_t rdata = 0;
      if (dr.we) {
        data_write(word_addr, dr.wdata, dr.be);
      } else {
        rdata = data_read(word_addr);
      }
      push(data_q_, now_, rdata);
    }
    core_.end_cycle();
    ++now_;
    if (exited_) {
      break;
    }
  }
  core_.flush_retire();
  result.exited = exited_;
  result.exit_value = exit_value_;
  result.cycles = now_;
  return result;
}

}  // namespace socsim
