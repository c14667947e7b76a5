// The probe engine on a hand-made retire trace: built-in phases, a range loop, calls, a tail
// call, an interrupt, runtime operator/delegate calls with element counts read from memory,
// probe register marks, and the function profile (self cycles sum to the total).
#include "models/probe/probe_engine.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "models/common/config.h"
#include "platform/report/profile_report.h"

namespace socsim {
namespace {

constexpr uint32_t kNop = 0x00000013;
constexpr uint32_t kJal = 0x000000EF;  // jal ra (the target is in next_pc)
constexpr uint32_t kJ = 0x0000006F;
constexpr uint32_t kRet = 0x00008067;
constexpr uint32_t kMret = 0x30200073;
constexpr uint32_t kMarks = 0x1A000000;

std::vector<ProbeSymbol> test_symbols() {
  return {
      {"_start", 0x80, 0x80, true},
      {"__socsim_bss_zero", 0x90, 0, false},
      {"__socsim_bss_zero_end", 0x9C, 0, false},
      {"main", 0x200, 0x40, true},
      {"func_b", 0x300, 0x40, true},
      {"__socsim_init_array", 0x400, 0x20, true},
      {"_ZN6socsim7runtime6Method7executeEPNS0_17MethodDiagnosticsE", 0x500, 0x40, true},
      {"_ZN6socsim7kernels12_GLOBAL__N_16add_i8ERKNS_7runtime10KernelArgsE", 0x600, 0x40, true},
      {"_ZN6socsim9delegates12_GLOBAL__N_17executeERKNS_7runtime21BackendExecuteContextEPvPKP"
       "NS2_6TensorEmm",
       0x700, 0x40, true},
  };
}

// Builds records with increasing cycle and order.
class Trace {
 public:
  explicit Trace(ProbeEngine& engine) : engine_(engine) {}
  RetireRecord make(uint32_t pc, uint32_t insn, uint32_t next_pc, unsigned cost) {
    cycle_ += cost;
    RetireRecord r;
    r.cycle = cycle_;
    r.order = order_++;
    r.pc = pc;
    r.insn = insn;
    r.next_pc = next_pc;
    return r;
  }
  void op(uint32_t pc, unsigned cost = 1, uint8_t rd = 0, uint32_t value = 0) {
    RetireRecord r = make(pc, kNop, pc + 4, cost);
    r.rd = rd;
    r.rd_value = value;
    engine_.on_retire(r);
  }
  void call(uint32_t pc, uint32_t target) {
    RetireRecord r = make(pc, kJal, target, 2);
    r.rd = 1;
    r.rd_value = pc + 4;
    engine_.on_retire(r);
  }
  void flow(uint32_t pc, uint32_t insn, uint32_t to, unsigned cost) {
    engine_.on_retire(make(pc, insn, to, cost));
  }
  void store(uint32_t pc, uint32_t addr, uint32_t data) {
    RetireRecord r = make(pc, 0x00A5A023, pc + 4, 1);  // sw a0, 0(a1)
    r.mem_valid = r.mem_write = true;
    r.mem_size = 4;
    r.mem_addr = addr;
    r.mem_data = data;
    engine_.on_retire(r);
  }
  uint64_t cycle() const { return cycle_; }

 private:
  ProbeEngine& engine_;
  uint64_t cycle_ = 0, order_ = 0;
};

struct Fixture {
  std::map<uint32_t, uint32_t> memory = {
      {0x1008, 0x2000}, {0x2000, 0x3000}, {0x3004, 2}, {0x3008, 4}, {0x300C, 10},  // kernel
      {0x4004, 0x5000}, {0x5004, 1},      {0x5008, 8},                             // delegate
  };
  ProbeEngine engine{test_symbols(),
                     [this](uint32_t addr, uint32_t* v) {
                       auto it = memory.find(addr);
                       if (it == memory.end()) return false;
                       *v = it->second;
                       return true;
                     },
                     true};

  void run(uint64_t run_cycles = 0) {
    engine.add_builtin_regions();
    engine.regions().set_mark_window(kMarks, 0x1000);
    engine.regions().name_mark(5, "marked loop");
    Trace t(engine);
    t.op(0x80, 3);  // first instruction: 3 cycles after reset
    t.op(0x84);
    for (int w = 0; w < 3; ++w) {  // BSS: sw 1, addi 1, bltu 3 (1 when it falls through)
      t.op(0x90);
      t.op(0x94);
      t.flow(0x98, 0x00B56463, w < 2 ? 0x90 : 0x9C, w < 2 ? 3 : 1);
    }
    t.call(0x9C, 0x400);  // static init
    t.op(0x400);
    t.flow(0x404, kRet, 0xA0, 2);
    t.call(0xA0, 0x200);  // main
    t.op(0x200);
    t.call(0x204, 0x500);        // Method::execute
    t.op(0x500, 1, 10, 0x1000);  // a0 = &KernelArgs
    t.call(0x504, 0x600);        // operator add_i8
    t.op(0x600);
    t.flow(0x604, kJ, 0x300, 2);  // tail call to func_b
    t.op(0x300);
    t.flow(0x304, kRet, 0x508, 2);
    t.op(0x508, 1, 12, 0x4000);  // a2 = args
    t.op(0x50C, 1, 13, 1);       // a3 = input count
    t.call(0x510, 0x700);        // delegate
    t.op(0x700);
    t.flow(0x704, kRet, 0x514, 2);
    t.op(0x0, 5);  // an interrupt: the handler runs before 0x514
    t.flow(0x4, kMret, 0x514, 2);
    t.flow(0x514, kRet, 0x208, 2);
    t.store(0x208, kMarks + 0, 5);  // BEGIN 5
    t.op(0x20C, 4);
    t.store(0x210, kMarks + 8, 99);  // VALUE 99
    t.store(0x214, kMarks + 4, 5);   // END 5
    t.op(0x218);
    end_cycle = t.cycle();
    engine.finish(run_cycles);
  }
  const RegionStats& region(const std::string& name) {
    for (size_t i = 0; i < engine.regions().size(); ++i) {
      if (engine.regions().def(i).name == name) return engine.regions().stats(i);
    }
    ADD_FAILURE() << "no region " << name;
    static RegionStats none;
    return none;
  }
  uint64_t end_cycle = 0;
};

TEST(ProbeEngine, BuiltinPhases) {
  Fixture f;
  f.run();
  EXPECT_EQ(f.end_cycle, 60u);
  EXPECT_EQ(f.engine.total_cycles(), 60u);
  EXPECT_EQ(f.region("reset -> _start").cycles, 3u);
  EXPECT_EQ(f.region("reset -> _start").instructions, 1u);
  const RegionStats& bss = f.region("bss zero");
  EXPECT_EQ(bss.count, 1u);
  EXPECT_EQ(bss.cycles, 5u * 3 - 2);
  EXPECT_EQ(bss.instructions, 9u);
  EXPECT_EQ(f.region("static init").cycles, 3u);
  EXPECT_EQ(f.region("static init").instructions, 2u);
  EXPECT_EQ(f.region("main to exit").cycles, 60u - 24);
  EXPECT_EQ(f.engine.unmatched_returns(), 0u);
}

TEST(ProbeEngine, RuntimeEventsWithElements) {
  Fixture f;
  f.run();
  const RegionStats& exec = f.region("execute");
  EXPECT_EQ(exec.count, 1u);
  EXPECT_EQ(exec.cycles, 52u - 27);  // includes the interrupt taken inside it
  const RegionStats& op = f.region("operator add_i8");
  EXPECT_EQ(op.count, 1u);
  EXPECT_EQ(op.cycles, 6u);  // the tail-called func_b included
  EXPECT_EQ(op.instructions, 4u);
  EXPECT_EQ(op.elements, 40u);
  const RegionStats& del = f.region("delegate delegates::execute");
  EXPECT_EQ(del.cycles, 3u);
  EXPECT_EQ(del.elements, 8u);
}

// A range left by a call stays open while the callee runs, and closes at the first
// instruction outside it at the range's own depth, also when the return lands between the
// same range boundaries as the callee's code.
TEST(ProbeEngine, RangeLeftByACallClosesAtItsDepth) {
  Fixture f;
  f.engine.regions().add(parse_region_spec("tail", "0x300..0x310", f.engine.symbols(), "test"));
  Trace t(f.engine);
  t.op(0x80);
  t.call(0x84, 0x200);                  // main, depth 2
  t.flow(0x200, 0x00B50463, 0x300, 3);  // a branch into the range
  t.op(0x300);
  t.op(0x304);
  t.op(0x308);
  t.call(0x30C, 0x400);  // returns to 0x310, past the range's end
  t.op(0x400);
  t.op(0x404);
  t.flow(0x408, kRet, 0x310, 2);
  t.op(0x310, 5);  // outside, at depth 2: closes the range
  t.op(0x314);
  f.engine.finish();
  const RegionStats& tail = f.region("tail");
  EXPECT_EQ(tail.count, 1u);
  EXPECT_EQ(tail.instructions, 7u);
  EXPECT_EQ(tail.cycles, 1u + 1 + 1 + 2 + 1 + 1 + 2);
}

TEST(ProbeEngine, MarksCostTheirEndStore) {
  Fixture f;
  f.run();
  const RegionStats& mark = f.region("marked loop");
  EXPECT_EQ(mark.count, 1u);
  EXPECT_EQ(mark.cycles, 6u);  // nop 4, VALUE store 1, END store 1
  EXPECT_EQ(mark.instructions, 3u);
  EXPECT_EQ(mark.elements, 99u);
}

TEST(ProbeEngine, ProfileSumsToTotal) {
  Fixture f;
  f.run();
  const FunctionProfile& p = *f.engine.profile();
  uint64_t self = 0, instructions = 0;
  std::map<std::string, FunctionProfile::Entry> by_name;
  for (const auto& [fn, e] : p.entries()) {
    self += e.self_cycles;
    instructions += e.self_instructions;
    by_name[f.engine.symbols().name_of(fn)] = e;
  }
  EXPECT_EQ(self, 60u);
  EXPECT_EQ(instructions, 36u);
  EXPECT_EQ(by_name["_start"].self_cycles, 21u);
  EXPECT_EQ(by_name["_start"].inclusive_cycles, 60u);
  EXPECT_EQ(by_name["func_b"].self_cycles, 3u);
  EXPECT_EQ(by_name["func_b"].calls, 1u);
  EXPECT_EQ(by_name["[unknown]"].self_cycles, 7u);
  EXPECT_EQ(by_name["main"].calls, 1u);
  EXPECT_EQ(by_name["main"].inclusive_cycles, 60u - 24);

  std::ostringstream folded, callgrind;
  write_folded_stacks(folded, p);
  EXPECT_NE(folded.str().find("_start;main;socsim::runtime::Method::execute("), std::string::npos);
  uint64_t folded_sum = 0;
  std::istringstream lines(folded.str());
  for (std::string line; std::getline(lines, line);) {
    folded_sum += std::stoull(line.substr(line.rfind(' ') + 1));
  }
  EXPECT_EQ(folded_sum, 60u);
  write_callgrind(callgrind, p, "test", nullptr);
  EXPECT_NE(callgrind.str().find("events: Cycles Instructions"), std::string::npos);
  EXPECT_NE(callgrind.str().find("summary: 60 36"), std::string::npos);
  EXPECT_NE(callgrind.str().find("calls=1 0x300 0\n"), std::string::npos);
  EXPECT_NE(callgrind.str().find("fl=(1) ???\n"), std::string::npos);
}

TEST(ProbeEngine, CyclesAfterTheLastRetirementGoToItsFunctionAndOpenRegions) {
  Fixture f;
  f.run(63);
  EXPECT_EQ(f.engine.total_cycles(), 63u);
  EXPECT_EQ(f.region("main to exit").cycles, 63u - 24);
  EXPECT_EQ(f.region("execute").cycles, 52u - 27);
  uint64_t self = 0, instructions = 0, main_self = 0;
  for (const auto& [fn, e] : f.engine.profile()->entries()) {
    self += e.self_cycles;
    instructions += e.self_instructions;
    if (f.engine.symbols().name_of(fn) == "main") main_self = e.self_cycles;
  }
  EXPECT_EQ(self, 63u);
  EXPECT_EQ(instructions, 36u);
  EXPECT_EQ(main_self, 1u + 2 + 1 + 4 + 1 + 1 + 1 + 3);  // the last instruction was main's
}

TEST(ProbeEngine, RegionSpecs) {
  SymbolMap symbols(test_symbols());
  RegionDef r = parse_region_spec("loop", "__socsim_bss_zero..__socsim_bss_zero_end", symbols, "x");
  EXPECT_EQ(r.trigger, RegionTrigger::kRange);
  EXPECT_EQ(r.start, 0x90u);
  EXPECT_EQ(r.end, 0x9Cu);
  r = parse_region_spec("hex", "0x100..0x180", symbols, "x");
  EXPECT_EQ(r.end, 0x180u);
  r = parse_region_spec("exec", "socsim::runtime::Method::execute", symbols, "x");
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_EQ(symbols.function(r.functions[0]).addr, 0x500u);
  r = parse_region_spec("k", "socsim::kernels::(anonymous namespace)::add_i8", symbols, "x");
  EXPECT_EQ(r.functions.size(), 1u);
  EXPECT_THROW(parse_region_spec("bad", "no_such_function", symbols, "x"), ConfigError);
  EXPECT_THROW(parse_region_spec("bad", "main..func_b_end", symbols, "x"), ConfigError);
  EXPECT_THROW(parse_region_spec("empty", "0x200..0x100", symbols, "x"), ConfigError);
}

TEST(ProbeEngine, ReportsListEveryBuiltinRegion) {
  Fixture f;
  f.run();
  ProbeRunInfo info{"iss", false, 400, "t.elf"};
  std::ostringstream table, csv, json;
  f.engine.print_table(table, info);
  EXPECT_NE(table.str().find("[iss: estimated cycles]"), std::string::npos);
  EXPECT_NE(table.str().find("marked loop *"), std::string::npos);
  f.engine.write_csv(csv, info);
  EXPECT_EQ(csv.str().rfind("region,category,count,cycles,", 0), 0u);
  EXPECT_NE(csv.str().find("\nbss zero,phase,1,13,13,13,9,"), std::string::npos);
  f.engine.write_json(json, info);
  EXPECT_NE(json.str().find("\"schema\": \"socsim-probes/1\""), std::string::npos);
}

}  // namespace
}  // namespace socsim
