#include "models/ddr/ddr_address.h"

namespace socsim {

DdrAddressDecoder::DdrAddressDecoder(const DdrAddressMapping& mapping)
    : channel_(compile(mapping.channel)),
      rank_(compile(mapping.rank)),
      bank_group_(compile(mapping.bank_group)),
      bank_(compile(mapping.bank)),
      row_(compile(mapping.row)),
      column_(compile(mapping.column)) {
  for (const auto* bits :
       {&mapping.channel, &mapping.rank, &mapping.bank_group, &mapping.bank, &mapping.row}) {
    for (uint32_t bit : *bits) row_bank_bits_ |= bit < 64 ? uint64_t{1} << bit : 0;
  }
  for (const Field* f : {&channel_, &rank_, &bank_group_, &bank_, &row_, &column_}) {
    single_runs_ = single_runs_ && f->more.empty();
  }
}

// The i-th listed bit is bit i of the field (the first entry is the least significant).
DdrAddressDecoder::Field DdrAddressDecoder::compile(const std::vector<uint32_t>& bits) {
  Field field;
  size_t i = 0;
  while (i < bits.size()) {
    size_t width = 1;
    while (i + width < bits.size() && bits[i + width] == bits[i] + width) ++width;
    const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    const Run run{static_cast<uint8_t>(bits[i]), static_cast<uint8_t>(i), mask};
    if (i == 0) {
      field.first = run;
    } else {
      field.more.push_back(run);
    }
    i += width;
  }
  return field;  // no bits: mask 0, every address maps to 0
}

}  // namespace socsim
