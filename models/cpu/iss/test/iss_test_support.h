// Test support for the ISS: a flat memory bus, an environment with one scheduled interrupt
// rise, and a tiny RV32 encoder.
#pragma once

#include <cstring>
#include <vector>

#include "models/cpu/iss/rv32_iss.h"

namespace socsim::test {

/// Flat RAM at 0 with a DMI window; other addresses are "unmapped" (bus error).
class FlatBus : public CpuBus {
 public:
  explicit FlatBus(uint32_t size) : mem(size, 0) {}
  BusResult read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data, uint64_t) override {
    ++bus_reads;
    if (port == BusPort::kData) ++data_reads;
    if (addr + bytes > mem.size()) return {false, 0};
    uint32_t v = 0;
    std::memcpy(&v, &mem[addr], bytes);
    *data = v;
    return {true, wait};
  }
  BusResult write(BusPort, uint32_t addr, unsigned bytes, uint32_t data, uint64_t) override {
    ++bus_writes;
    if (addr == kExitAddr) {
      exit_value = static_cast<int>(data);
      exited = true;
      return {true, 0};
    }
    if (addr + bytes > mem.size()) return {false, 0};
    std::memcpy(&mem[addr], &data, bytes);
    return {true, wait};
  }
  DirectWindow direct_window(BusPort, uint32_t addr) override {
    if (!use_dmi || addr >= mem.size()) return {};
    DirectWindow w;
    w.base = 0;
    w.size = static_cast<uint32_t>(mem.size());
    w.data = mem.data();
    w.writable = true;
    return w;
  }
  void put32(uint32_t addr, uint32_t v) { std::memcpy(&mem[addr], &v, 4); }
  void put16(uint32_t addr, uint16_t v) { std::memcpy(&mem[addr], &v, 2); }
  uint32_t get32(uint32_t addr) const {
    uint32_t v;
    std::memcpy(&v, &mem[addr], 4);
    return v;
  }

  static constexpr uint32_t kExitAddr = 0x20000004;
  std::vector<uint8_t> mem;
  bool use_dmi = true;
  uint32_t wait = 0;
  int exit_value = -1;
  bool exited = false;
  unsigned bus_reads = 0, data_reads = 0, bus_writes = 0;
};

/// FlatBus behind both ports; interrupt lines `level`, plus `rise_mask` from cycle `rise_at`.
class TestEnvironment : public CoreEnvironment {
 public:
  explicit TestEnvironment(FlatBus& bus) : bus_(bus) {}
  CpuBus& bus() override { return bus_; }
  uint32_t irq_lines(uint64_t cycle, uint64_t* stable_until) override {
    if (cycle >= rise_at) {
      *stable_until = ~uint64_t(0);
      return level | rise_mask;
    }
    *stable_until = rise_at - 1;
    return level;
  }
  uint32_t level = 0;
  uint32_t rise_mask = 0;
  uint64_t rise_at = ~uint64_t(0);

 private:
  FlatBus& bus_;
};

// RV32 encoders (register numbers, immediates as in assembly).
inline uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd,
                       uint32_t op) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return (static_cast<uint32_t>(imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 5) & 0x7F) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 0x1F) << 7) |
         0x23;
}
inline uint32_t b_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3F) << 25) | (rs2 << 20) | (rs1 << 15) |
         (f3 << 12) | (((u >> 1) & 0xF) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
inline uint32_t j_type(int32_t imm, uint32_t rd) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3FF) << 21) | (((u >> 11) & 1) << 20) |
         (((u >> 12) & 0xFF) << 12) | (rd << 7) | 0x6F;
}
inline uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x13); }
inline uint32_t lui(uint32_t rd, uint32_t imm20) { return (imm20 << 12) | (rd << 7) | 0x37; }
inline uint32_t add(uint32_t rd, uint32_t rs1, uint32_t rs2) { return r_type(0, rs2, rs1, 0, rd, 0x33); }
inline uint32_t mul_op(uint32_t f3, uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return r_type(1, rs2, rs1, f3, rd, 0x33);
}
inline uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 2, rd, 0x03); }
inline uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 1, rd, 0x03); }
inline uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 4, rd, 0x03); }
inline uint32_t lb(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x03); }
inline uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 2); }
inline uint32_t sb(uint32_t rs2, uint32_t rs1, int32_t imm) { return s_type(imm, rs2, rs1, 0); }
inline uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) { return i_type(static_cast<int32_t>(csr), rs1, 1, rd, 0x73); }
inline uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) { return i_type(static_cast<int32_t>(csr), rs1, 2, rd, 0x73); }
inline uint32_t csrrwi(uint32_t rd, uint32_t csr, uint32_t uimm) { return i_type(static_cast<int32_t>(csr), uimm, 5, rd, 0x73); }
constexpr uint32_t kEcall = 0x00000073, kEbreak = 0x00100073, kMret = 0x30200073,
                   kWfi = 0x10500073, kNop = 0x00000013;

}  // namespace socsim::test
