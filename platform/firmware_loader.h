// Puts a firmware image into the SoC's memories before the simulation starts.
#pragma once

#include "platform/firmware_image.h"

namespace socsim {

class Soc;

/// Writes every segment of `image` into the SoC's memory. Throws ConfigError naming the
/// file and the segment when a segment is not inside one memory region of the map. Warns
/// on stderr when an ELF's entry point is not the core's boot address.
void load_firmware(const FirmwareImage& image, Soc& soc);

}  // namespace socsim
