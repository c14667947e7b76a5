// Shared by the fuzz targets (tests/fuzz/): a scratch folder for inputs that the code under
// test reads from a file, and the split of one input into a file and `--set` overrides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace socsim::fuzz {

/// A fresh folder under $TMPDIR (or /dev/shm, or /tmp), made once per process and removed at
/// exit.
const std::string& scratch_dir();

/// Writes `size` bytes at `data` to `path` (replacing it).
void write_file(const std::string& path, const uint8_t* data, size_t size);

/// An input "FILE\0SET\nSET...": the bytes before the first NUL are the file, each line after
/// it one `--set` assignment (empty lines skipped). Without a NUL the whole input is the file.
/// Writes the file part of such an input to `path` and returns the overrides.
std::vector<std::string> write_file_with_overrides(const std::string& path, const uint8_t* data,
                                                   size_t size);

}  // namespace socsim::fuzz
