// Reading an input file whole, with its size capped before anything is allocated: a file
// named on the command line or in a configuration may be a folder, a FIFO, a device that
// never ends (/dev/zero) or simply too large. Each is an input error (ConfigError) naming
// the file, never a hang or an allocation failure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace socsim {

/// Caps on the files socsim reads (docs/platform.md#limits; configuration files:
/// ConfigNode::kMaxFileBytes).
constexpr uint64_t kMaxFirmwareFileBytes = 256ull << 20;  ///< an ELF or hex image

/// The size of `path`, which must be a regular file of at most `max_bytes`. `what` names it
/// in messages ("model file"). Throws ConfigError.
uint64_t check_input_file(const std::string& path, uint64_t max_bytes, const std::string& what);

/// The contents of `path` (see check_input_file). Throws ConfigError.
std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes,
                                     const std::string& what);

}  // namespace socsim
