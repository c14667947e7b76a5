// `socsim sweep` and `socsim compare`: hand over to the Python tools in scripts/socsim_sweep
// (docs/sweeps.md), telling them which socsim binary runs the points.
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "platform/commands.h"

namespace socsim {

namespace {

// Replaces this process with `python3 -m <module> <args...>`; returns only on failure.
int exec_python_module(const char* module, const std::vector<std::string>& args) {
  const char* python = std::getenv("SOCSIM_PYTHON");
  if (python == nullptr || *python == '\0') python = "/usr/bin/python3";
  const std::string scripts = std::string(SOCSIM_SOURCE_DIR) + "/scripts";
  const char* old_path = std::getenv("PYTHONPATH");
  const std::string path =
      scripts + (old_path != nullptr && *old_path != '\0' ? ":" + std::string(old_path) : "");
  setenv("PYTHONPATH", path.c_str(), 1);
  setenv("PYTHONDONTWRITEBYTECODE", "1", 0);
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    setenv("SOCSIM_BINARY", self, 1);
  }

  std::vector<std::string> argv_strings = {python, "-m", module};
  argv_strings.insert(argv_strings.end(), args.begin() + 1, args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  execv(python, argv.data());
  std::cerr << "socsim " << args[0] << ": cannot run " << python << ": " << std::strerror(errno)
            << " (set SOCSIM_PYTHON to a Python 3 interpreter)\n";
  return kExitUsage;
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
  return exec_python_module("socsim_sweep", args);
}

int cmd_compare(const std::vector<std::string>& args) {
  return exec_python_module("socsim_sweep.compare", args);
}

}  // namespace socsim
