#include "platform/usage_error.h"

#include <vector>

#include "models/common/config.h"

namespace po = boost::program_options;

namespace socsim {

std::string usage_error(const std::string& command, const po::error& error,
                        const po::options_description& options) {
  std::string message = "socsim " + command + ": " + error.what();
  if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&error)) {
    std::string name = unknown->get_option_name();
    while (!name.empty() && name[0] == '-') name.erase(0, 1);
    std::vector<std::string> known;
    for (const auto& option : options.options()) known.push_back(option->long_name());
    if (const std::optional<std::string> near = nearest_word(name, known)) {
      message += " (did you mean '--" + *near + "'?)";
    }
  }
  return message + "\nRun 'socsim " + command + " --help' for the options.\n";
}

}  // namespace socsim
