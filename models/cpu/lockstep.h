// Lockstep checking of the RTL core against the ISS, in value and in time.
//
// The ISS runs beside the RTL core in its own world: the RTL core's bus traffic replayed. Every
// access the ISS makes must be one the RTL core made, in the same cycle (port, address, size,
// direction, store data); it gets the RTL core's answer (the loaded bytes, the wait cycles),
// and the RTL core's interrupt lines, cycle by cycle. Every retire record is compared, its
// cycle included (pc, instruction, destination register and value, memory access, trap,
// interrupt). The first divergence, in value or time, stops the run as a simulation fault that
// shows both records, or both requests, and both cores' recent history.
//
// The ISS never touches the SoC; it runs behind the RTL core, never past the cycle the RTL
// core is in.
#pragma once

#include <array>
#include <deque>
#include <string>

#include "models/common/sim_control.h"
#include "models/cpu/iss/rv32_iss.h"
#include "models/cpu/obi_server.h"
#include "models/cpu/retire.h"

namespace socsim {

class LockstepChecker : public RetireObserver, public BusObserver {
 public:
  /// `downstream` (optional) receives every RTL record after it was checked. The RTL core's
  /// model must report its traffic to this checker (CpuModel::set_bus_observer).
  LockstepChecker(const IssConfig& config, SimControl& control,
                  RetireObserver* downstream = nullptr);

  // The RTL core's side.
  void on_cycle(uint64_t cycle, uint32_t lines) override;
  void on_access(BusPort port, uint64_t cycle, uint32_t addr, unsigned bytes, bool write,
                 uint32_t data, uint32_t wait_cycles) override;
  void on_retire(const RetireRecord& rtl) override;

  uint64_t checked() const { return checked_; }
  bool diverged() const { return diverged_; }

 private:
  struct Access {
    BusPort port;
    uint64_t cycle;
    uint32_t addr;
    unsigned bytes;
    bool write;
    uint32_t data;
    uint32_t wait;
  };
  /// The RTL core's traffic, as the ISS's world.
  class Replay : public CoreEnvironment, public CpuBus {
   public:
    explicit Replay(LockstepChecker& checker) : checker_(checker) {}
    CpuBus& bus() override { return *this; }
    uint32_t irq_lines(uint64_t cycle, uint64_t* stable_until) override;
    BusResult read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                   uint64_t cycle) override;
    BusResult write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                    uint64_t cycle) override;
    DirectWindow direct_window(BusPort, uint32_t) override { return DirectWindow{}; }

   private:
    BusResult answer(const Access& iss, uint32_t* data);
    LockstepChecker& checker_;
  };
  /// The ISS's records.
  class Capture : public RetireObserver {
   public:
    explicit Capture(LockstepChecker& checker) : checker_(checker) {}
    void on_retire(const RetireRecord& r) override;

   private:
    LockstepChecker& checker_;
  };

  void run_iss();
  void compare(const RetireRecord& rtl, const RetireRecord& iss);
  void diverge(uint64_t cycle, const std::string& what);
  /// A core's last events (accesses and retirements), kept as they are and described only
  /// when the run diverges.
  class History {
   public:
    void add(const Access& a) {
      Event& e = next();
      e.retire = false;
      e.access = a;
    }
    void add(const RetireRecord& r) {
      Event& e = next();
      e.retire = true;
      e.record = r;
    }
    std::string describe() const;

   private:
    static constexpr size_t kEvents = 12;  // shown with a divergence
    struct Event {
      bool retire = false;
      Access access{};
      RetireRecord record{};
    };
    Event& next() {
      Event& e = events_[(first_ + count_) % kEvents];
      if (count_ < kEvents) {
        ++count_;
      } else {
        first_ = (first_ + 1) % kEvents;
      }
      return e;
    }
    std::array<Event, kEvents> events_{};
    size_t first_ = 0, count_ = 0;
  };
  static std::string describe(const Access& a);

  Replay replay_;
  Capture capture_;
  Rv32Iss iss_;
  SimControl& control_;
  RetireObserver* downstream_;
  uint64_t rtl_cycle_ = 0;  // the cycle the RTL core is in (its accesses up to it are known)
  std::deque<Access> accesses_[2];                         // the RTL core's, not yet replayed
  std::deque<std::pair<uint64_t, uint32_t>> lines_;        // (from cycle, irq_i) changes
  std::deque<RetireRecord> rtl_records_, iss_records_;     // not yet compared
  History rtl_history_, iss_history_;
  uint64_t checked_ = 0;
  bool diverged_ = false;
  bool stop_ = false;
};

/// One line describing a retire record, for messages and traces.
std::string describe(const RetireRecord& r);

}  // namespace socsim
