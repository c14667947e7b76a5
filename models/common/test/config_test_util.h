// Helpers for tests of YAML configuration readers.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>

#include "models/common/config.h"

namespace socsim::test {

/// The ConfigError message `fn` throws, or "" if it throws none.
inline std::string config_error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

/// Writes `text` to a file called `name` in the test's temporary folder; returns its path.
inline std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace socsim::test
