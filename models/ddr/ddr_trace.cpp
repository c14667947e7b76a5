#include "models/ddr/ddr_trace.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "models/common/config.h"
#include "models/common/input_file.h"

namespace socsim {

namespace {

// "12", "12.5ns", "800ps", "1.5us" -> picoseconds; nullopt if malformed.
std::optional<uint64_t> parse_time_ps(const std::string& text) {
  static const std::pair<const char*, double> kUnits[] = {{"ps", 1.0}, {"ns", 1e3}, {"us", 1e6}};
  std::string number = text;
  double scale = 1e3;
  for (const auto& [unit, factor] : kUnits) {
    const std::string u(unit);
    if (text.size() > u.size() && text.compare(text.size() - u.size(), u.size(), u) == 0) {
      number = text.substr(0, text.size() - u.size());
      scale = factor;
      break;
    }
  }
  if (number.empty() || number[0] == '-' || number[0] == '+') return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value) || value * scale > 1.8e19) {
    return std::nullopt;
  }
  return static_cast<uint64_t>(std::llround(value * scale));
}

bool valid_name(const std::string& name) {
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') {
      return false;
    }
  }
  return !name.empty();
}

}  // namespace

DdrTrace parse_ddr_trace(std::istream& in, const std::string& name, uint64_t capacity) {
  DdrTrace trace;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    auto fail = [&](const std::string& message) {
      throw ConfigError(name + ":" + std::to_string(number) + ": " + message);
    };
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> tokens;
    for (std::string token; fields >> token;) tokens.push_back(token);
    if (tokens.empty()) continue;
    if (tokens.size() < 4 || tokens.size() > 5) {
      fail("expected '<time> <R|W> <address> <bytes> [initiator]', got " +
           std::to_string(tokens.size()) + " fields");
    }
    DdrTraceRecord record;
    std::optional<uint64_t> time = parse_time_ps(tokens[0]);
    if (!time) fail("bad time '" + tokens[0] + "' (a number with optional unit ps, ns, us)");
    record.time_ps = *time;
    if (tokens[1] == "R" || tokens[1] == "r") {
      record.is_write = false;
    } else if (tokens[1] == "W" || tokens[1] == "w") {
      record.is_write = true;
    } else {
      fail("bad command '" + tokens[1] + "' (expected R or W)");
    }
    std::optional<uint64_t> addr = parse_u64(tokens[2]);
    if (!addr) fail("bad address '" + tokens[2] + "'");
    std::optional<uint64_t> bytes = parse_u64(tokens[3]);
    if (!bytes || *bytes == 0 || *bytes > UINT32_MAX) fail("bad size '" + tokens[3] + "'");
    if (*addr >= capacity || *bytes > capacity - *addr) {
      std::ostringstream msg;
      msg << "request [0x" << std::hex << *addr << ", 0x" << *addr + *bytes
          << ") is outside the device (0x" << capacity << " bytes)";
      fail(msg.str());
    }
    record.addr = *addr;
    record.bytes = static_cast<uint32_t>(*bytes);
    const std::string initiator = tokens.size() == 5 ? tokens[4] : "trace";
    if (!valid_name(initiator)) fail("bad initiator name '" + initiator + "'");
    size_t id = 0;
    while (id < trace.initiators.size() && trace.initiators[id] != initiator) ++id;
    if (id == trace.initiators.size()) {
      if (id == kMaxTraceInitiators) {
        fail("more than " + std::to_string(kMaxTraceInitiators) + " initiator names");
      }
      trace.initiators.push_back(initiator);
    }
    record.initiator = static_cast<int>(id);
    trace.records.push_back(record);
  }
  return trace;
}

DdrTrace load_ddr_trace(const std::string& file, uint64_t capacity) {
  check_input_file(file, kMaxTraceFileBytes, "trace file");
  std::ifstream in(file);
  if (!in) throw ConfigError(file + ": cannot open trace file");
  return parse_ddr_trace(in, file, capacity);
}

}  // namespace socsim
