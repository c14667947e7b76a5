// The message of a command line that Boost.Program_options refused: one line, with the
// nearest known option for an unknown or misspelt one, and where to find the options (the
// whole help is not repeated on every mistake).
#pragma once

#include <boost/program_options.hpp>
#include <string>

namespace socsim {

/// "socsim run: unrecognised option '--max-cycle' (did you mean '--max-cycles'?)\n"
/// "Run 'socsim run --help' for the options.\n"; `command` is "run", "memmap", ...
std::string usage_error(const std::string& command, const boost::program_options::error& error,
                        const boost::program_options::options_description& options);

}  // namespace socsim
