#include "models/cpu/bare/bare_system.h"

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
constexpr uint32_t kDebugSize = 16u << 10;
constexpr uint32_t kTestPassed = 123456789;
constexpr uint64_t kForever = ~uint64_t(0);

uint32_t value_mask(unsigned bytes) { return bytes >= 4 ? 0xFFFFFFFFu : (1u << (8 * bytes)) - 1; }
uint8_t byte_enables(uint32_t addr, unsigned bytes) {
  return static_cast<uint8_t>(((1u << bytes) - 1) << (addr & 3));
}

}  // namespace

BareSystem::BareSystem(const BareHarnessOptions& options)
    : options_(options), ram_(kRamSize, 0), rng_(options.seed) {}

bool BareSystem::load_elf(const std::string& path, std::string* error) {
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

void BareSystem::write_words(uint32_t addr, const std::vector<uint32_t>& words) {
  for (uint32_t w : words) {
    std::memcpy(&ram_[addr % kRamSize], &w, 4);
    addr += 4;
  }
}

uint32_t BareSystem::read_word(uint32_t addr) const {
  uint32_t w;
  std::memcpy(&w, &ram_[(addr & ~3u) % kRamSize], 4);
  return w;
}

void BareSystem::reset() {
  instr_pending_ = data_pending_ = PendingRequest{};
  cycle_base_ = 0;
  irq_mask_ = 0;
  irq_at_ = 0;
  irq_raised_ = false;
  exited_ = stop_ = false;
  exit_value_ = 0;
  last_fetch_ = 0;
}

RunResult BareSystem::result(uint64_t cycles) const {
  RunResult r;
  r.exited = exited_;
  r.exit_value = exit_value_;
  r.last_pc = last_fetch_;
  r.cycles = cycles;
  return r;
}

// ---- cycle by cycle -------------------------------------------------------------------------

void BareSystem::grants(bool* instr_gnt, bool* data_gnt) {
  *instr_gnt = options_.random_waits ? (rng_() & 3) != 0 : true;
  *data_gnt = options_.random_waits ? (rng_() & 3) != 0 : true;
}

uint32_t BareSystem::irq_lines(uint64_t now, uint64_t* stable_until) const {
  if (irq_raised_ || (irq_at_ != 0 && now >= irq_at_)) {
    *stable_until = kForever;
    return irq_mask_;
  }
  *stable_until = irq_at_ != 0 ? irq_at_ - 1 : kForever;
  return 0;
}

bool BareSystem::check_stable(PendingRequest& pending, const ObiRequest& now, bool gnt) {
  if (pending.waiting &&
      (!now.req || now.addr != pending.request.addr || now.we != pending.request.we ||
       (now.we && (now.wdata != pending.request.wdata || now.be != pending.request.be)))) {
    return false;
  }
  pending.waiting = now.req && !gnt;
  pending.request = now;
  return true;
}

bool BareSystem::observe(uint64_t now, const ObiRequest& ir, bool igrant, const ObiRequest& dr,
                         bool dgrant, std::string* error) {
  if (options_.random_waits && !check_stable(instr_pending_, ir, igrant)) {
    *error = "instruction request withdrawn or changed before its grant";
    return false;
  }
  if (options_.random_waits && !check_stable(data_pending_, dr, dgrant)) {
    *error = "data request withdrawn or changed before its grant";
    return false;
  }
  if (options_.bus_trace == nullptr) return true;
  char line[96];
  if (ir.req && igrant) {
    std::snprintf(line, sizeof line, "%" PRIu64 " I %08x\n", now, ir.addr & ~3u);
    *options_.bus_trace << line;
  }
  if (dr.req && dgrant) {
    if (dr.we) {
      std::snprintf(line, sizeof line, "%" PRIu64 " D W %08x %x %08x\n", now, dr.addr & ~3u,
                    dr.be, dr.wdata);
    } else {
      std::snprintf(line, sizeof line, "%" PRIu64 " D R %08x %x\n", now, dr.addr & ~3u, dr.be);
    }
    *options_.bus_trace << line;
  }
  return true;
}

uint32_t BareSystem::draw_wait() { return options_.random_waits ? rng_() % 3 : 0; }

uint32_t BareSystem::fetch(uint32_t addr, uint64_t now, uint32_t* wait) {
  last_fetch_ = addr;
  *wait = draw_wait();
  return read_word(addr);
}

uint32_t BareSystem::data(const ObiRequest& req, uint64_t now, uint32_t* wait) {
  // OBI: the byte enables select lanes of the word at addr & ~3; the address itself may
  // carry the offset of the first enabled byte (the CV32E40P's does).
  const uint32_t word_addr = req.addr & ~3u;
  uint32_t rdata = 0;
  if (req.we) {
    data_write(word_addr, req.wdata, req.be, now);
  } else {
    rdata = data_read(word_addr, now);
  }
  *wait = draw_wait();
  return rdata;
}

uint32_t BareSystem::data_read(uint32_t addr, uint64_t now) const {
  if (addr < kRamSize) {
    return read_word(addr);
  }
  if (addr - kDebugBase < kDebugSize) {
    return read_word(kRamSize - kDebugSize + (addr - kDebugBase));
  }
  if (addr == kCycleCount) {
    return static_cast<uint32_t>(now - cycle_base_);
  }
  return 0;
}

void BareSystem::data_write(uint32_t addr, uint32_t wdata, uint8_t be, uint64_t now) {
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
        exited_ = stop_ = true;
        exit_value_ = (wdata == kTestPassed) ? 0 : 1;
      }
      break;
    case kExitValue:
      exited_ = stop_ = true;
      exit_value_ = wdata;
      break;
    case kCycleCount:
      cycle_base_ = now;
      break;
    case kIrqMask:  // the lines go low from the next cycle
      irq_mask_ = wdata;
      irq_at_ = 0;
      irq_raised_ = false;
      break;
    case kIrqCountdown:
      if (irq_at_ != 0 && now >= irq_at_) irq_raised_ = true;  // they rose and stay high
      irq_at_ = wdata == 0 ? 0 : now + wdata;
      break;
    default:
      break;  // unmapped: dropped
  }
}

// ---- the ISS's view: one access per granted request ------------------------------------------

BusResult BareSystem::read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                           uint64_t cycle) {
  BusResult r;
  if (port == BusPort::kInstr) {
    *data = fetch(addr, cycle, &r.wait_cycles);
    return r;
  }
  ObiRequest req;
  req.req = true;
  req.addr = addr & ~3u;
  req.be = byte_enables(addr, bytes);
  *data = (this->data(req, cycle, &r.wait_cycles) >> (8 * (addr & 3))) & value_mask(bytes);
  return r;
}

BusResult BareSystem::write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                            uint64_t cycle) {
  ObiRequest req;
  req.req = true;
  req.we = true;
  req.addr = addr & ~3u;
  req.be = byte_enables(addr, bytes);
  req.wdata = data << (8 * (addr & 3));
  BusResult r;
  this->data(req, cycle, &r.wait_cycles);
  return r;
}

DirectWindow BareSystem::direct_window(BusPort port, uint32_t addr) {
  // Random wait states are drawn per request: then every access goes through read/write.
  if (options_.random_waits || addr >= kRamSize) return DirectWindow{};
  DirectWindow w;
  w.base = 0;
  w.size = kRamSize;
  w.data = ram_.data();
  w.writable = port == BusPort::kData;
  return w;
}

}  // namespace socsim
