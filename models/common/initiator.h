// Identifies the initiator of a TLM transaction (CPU, NPU DMA, ...) so that shared targets
// such as the DDR model can keep statistics per initiator.
//
// An initiator that wants to be told apart sets the extension on its payloads once;
// a payload without it counts as initiator 0, "cpu".
#pragma once

#include <string>
#include <tlm>
#include <utility>

namespace socsim {

class InitiatorExtension : public tlm::tlm_extension<InitiatorExtension> {
 public:
  static constexpr int kCpuId = 0;

  InitiatorExtension() = default;
  InitiatorExtension(int id, std::string name) : id(id), name(std::move(name)) {}

  tlm::tlm_extension_base* clone() const override { return new InitiatorExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const InitiatorExtension&>(other);
  }

  int id = kCpuId;           ///< small non-negative number, unique per initiator
  std::string name = "cpu";  ///< shown in statistics
};

}  // namespace socsim
