// The CPU-model registry: lookups, the unknown-model message, registration errors, shared
// option keys, and the contract between a registration and the model its factory builds
// (name, description and capabilities agree with what the model itself reports).
#include "models/cpu/cpu_registry.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>

#include "models/common/clock.h"
#include "models/common/irq.h"
#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"

namespace socsim {
namespace {

CpuModelType fake_type(const std::string& name) {
  CpuModelType t;
  t.name = name;
  t.summary = "a test model";
  t.help = "a test model";
  t.description = "test";
  t.build = [](const CpuConfig&, const CpuBuildContext&) -> std::unique_ptr<CpuModel> {
    return nullptr;
  };
  return t;
}

std::string error_of(const std::string& name) {
  try {
    cpu_model(name);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(CpuRegistry, TheIssAndTheRtlCoreAreRegistered) {
  ASSERT_NE(find_cpu_model("iss"), nullptr);
  ASSERT_NE(find_cpu_model("rtl"), nullptr);
  EXPECT_EQ(find_cpu_model("arm"), nullptr);
  EXPECT_EQ(cpu_model_names(), (std::vector<std::string>{"iss", "rtl"}));
  EXPECT_EQ(&cpu_model("rtl"), find_cpu_model("rtl"));
  EXPECT_EQ(cpu_model_list(true), "'iss' or 'rtl'");
  EXPECT_EQ(cpu_model_list(false), "iss or rtl");
  // Only the Verilated core has signals; only it is checked against the ISS.
  auto waveforms = [](const CpuModelType& t) { return t.capabilities.waveforms; };
  EXPECT_EQ(cpu_model_list(false, waveforms), "rtl");
  EXPECT_FALSE(cpu_model("iss").capabilities.lockstep);
  EXPECT_TRUE(cpu_model("iss").capabilities.retire_trace);
  EXPECT_EQ(cpu_model_list(false, [](const CpuModelType&) { return false; }), "");
}

TEST(CpuRegistry, AnUnknownModelListsTheRegisteredOnes) {
  EXPECT_EQ(error_of("iss"), "");
  EXPECT_EQ(error_of("arm"), "unknown CPU model 'arm' (iss, rtl)");
  EXPECT_EQ(error_of("rlt"), "unknown CPU model 'rlt' (iss, rtl); did you mean 'rtl'?");
}

TEST(CpuRegistry, ANewModelIsOneRegistration) {
  CpuModelType fpu = fake_type("iss_fpu");
  fpu.capabilities.retire_trace = true;
  fpu.keys = {ConfigKey::choice("zfh", {"false", "true"}, "true", "half-precision floats")};
  // The registered models' own options (the ISS's `fpu`).
  const size_t before = cpu_option_keys().size();
  EXPECT_TRUE(register_cpu_model(fpu));
  EXPECT_EQ(cpu_model_names(), (std::vector<std::string>{"iss", "iss_fpu", "rtl"}));
  EXPECT_EQ(cpu_model_list(true), "'iss', 'iss_fpu' or 'rtl'");
  EXPECT_EQ(error_of("arm"), "unknown CPU model 'arm' (iss, iss_fpu, rtl)");
  ASSERT_EQ(cpu_option_keys().size(), before + 1);
  EXPECT_EQ(cpu_option_keys().back().name, "zfh");  // sorted by name: last of them

  // A second model may read the same option, declared alike; it is one key of the section.
  CpuModelType other = fake_type("rtl_fpu");
  other.keys = fpu.keys;
  EXPECT_TRUE(register_cpu_model(other));
  EXPECT_EQ(cpu_option_keys().size(), before + 1);
}

TEST(CpuRegistry, RegistrationMistakesAreProgrammingErrors) {
  EXPECT_THROW(register_cpu_model(fake_type("iss")), std::logic_error);  // twice
  CpuModelType no_factory = fake_type("bare");
  no_factory.build = nullptr;
  EXPECT_THROW(register_cpu_model(no_factory), std::logic_error);

  CpuModelType a = fake_type("a");
  a.keys = {ConfigKey::unsigned_in("lanes", 1, 8, "1", "vector lanes")};
  EXPECT_TRUE(register_cpu_model(a));
  CpuModelType b = fake_type("b");
  b.keys = {ConfigKey::unsigned_in("lanes", 1, 16, "1", "vector lanes")};  // another range
  EXPECT_THROW(register_cpu_model(b), std::logic_error);
  EXPECT_EQ(find_cpu_model("b"), nullptr);
}

TEST(CpuRegistry, OptionsAreReadByName) {
  CpuConfig cpu;
  ConfigValue value;
  value.text = "true";
  cpu.options["fpu"] = value;
  EXPECT_EQ(cpu.option("fpu").text, "true");
  EXPECT_THROW(cpu.option("vector"), std::logic_error);
}

// Each registered model built by its factory: what it reports about itself is what its
// registration promises the platform. A parent module per model keeps their names apart.
class Holder : public sc_core::sc_module {
 public:
  Holder(sc_core::sc_module_name name, const CpuModelType& type, const CpuConfig& config,
         const CpuBuildContext& context)
      : sc_module(name), cpu(type.build(config, context)) {}
  std::unique_ptr<CpuModel> cpu;
};

TEST(CpuRegistry, EveryModelIsWhatItsRegistrationSays) {
  ClockDomain clock(100);
  IrqLines irq;
  SimControl control;
  const CpuBuildContext context{clock, irq, control};
  std::vector<std::unique_ptr<Holder>> built;
  for (const CpuModelType* type : cpu_models()) {
    SCOPED_TRACE(type->name);
    CpuConfig config;
    config.model = type->name;
    if (type->check) {
      EXPECT_NO_THROW(type->check(config));  // the section's defaults fit
    }
    built.push_back(std::make_unique<Holder>(type->name.c_str(), *type, config, context));
    CpuModel& cpu = *built.back()->cpu;
    EXPECT_EQ(cpu.kind(), type->name);
    EXPECT_EQ(cpu.description(), type->description);
    EXPECT_EQ(cpu.cycle_exact(), type->capabilities.cycle_exact);
    EXPECT_EQ(cpu.has_retire_trace(), type->capabilities.retire_trace);
    const std::string fst = testing::TempDir() + "cpu_registry_test_" + type->name + ".fst";
    const std::string refused = cpu.open_waveform(fst, 0, 0);
    cpu.close_waveform();
    std::remove(fst.c_str());
    const bool writes_here =
        type->capabilities.waveforms && !type->capabilities.waveforms_need_traced_build;
    EXPECT_EQ(refused.empty(), writes_here) << refused;
  }
  EXPECT_EQ(built.size(), cpu_model_names().size());
}

TEST(CpuRegistry, TheRtlCoreRefusesACounterCountItWasNotBuiltWith) {
  const CpuModelType& rtl = cpu_model("rtl");
  ASSERT_TRUE(rtl.check);
  CpuConfig cpu;
  cpu.file = "soc.yaml";
  cpu.num_mhpmcounters = 4;
  try {
    rtl.check(cpu);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("soc.yaml: cpu.num_mhpmcounters is 4"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(cpu_model("iss").check);  // the ISS takes any count 0..29
}

}  // namespace
}  // namespace socsim
