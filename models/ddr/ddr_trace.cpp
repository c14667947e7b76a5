#include "models/ddr/ddr_trace.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>

#include "models/common/config.h"
#include "models/common/input_file.h"
#include "models/ddr/ddr_address.h"

namespace socsim {

namespace {

constexpr struct {
  const char* name;
  DdrTraceFormat format;
} kFormats[] = {
    {"socsim", DdrTraceFormat::kSocsim},
    {"ramulator-ls", DdrTraceFormat::kRamulatorLoadStore},
    {"ramulator-rw", DdrTraceFormat::kRamulatorReadWrite},
    {"dramsys", DdrTraceFormat::kDramsys},
};

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

std::vector<std::string> tokens_of(const std::string& line, char separator) {
  std::vector<std::string> tokens;
  std::string token;
  std::istringstream fields(line);
  if (separator == ' ') {
    for (std::string t; fields >> t;) tokens.push_back(t);
  } else {
    while (std::getline(fields, token, separator)) tokens.push_back(token);
  }
  return tokens;
}

// One line's parser per format: fills `record` (time, direction, address, bytes) and
// returns the initiator name; `fail` throws "name:line: message".
using Fail = std::function<void(const std::string&)>;

// The direction word of a record: `read` or `write` (each format spells them its own way).
void parse_direction(const std::string& token, const char* read, const char* write,
                     DdrTraceRecord& record, const Fail& fail) {
  if (token == read) {
    record.is_write = false;
  } else if (token == write) {
    record.is_write = true;
  } else {
    fail("bad command '" + token + "' (expected " + read + " or " + write + ")");
  }
}

std::string parse_socsim(const std::vector<std::string>& tokens, DdrTraceRecord& record,
                         const Fail& fail) {
  if (tokens.size() < 4 || tokens.size() > 5) {
    fail("expected '<time> <R|W> <address> <bytes> [initiator]', got " +
         std::to_string(tokens.size()) + " fields");
  }
  std::optional<uint64_t> time = parse_time_ps(tokens[0]);
  if (!time) fail("bad time '" + tokens[0] + "' (a number with optional unit ps, ns, us)");
  record.time_ps = *time;
  std::string direction = tokens[1];
  if (direction == "r" || direction == "w") direction[0] = static_cast<char>(direction[0] - 32);
  parse_direction(direction, "R", "W", record, fail);
  std::optional<uint64_t> addr = parse_u64(tokens[2]);
  if (!addr) fail("bad address '" + tokens[2] + "'");
  std::optional<uint64_t> bytes = parse_u64(tokens[3]);
  if (!bytes || *bytes == 0 || *bytes > UINT32_MAX) fail("bad size '" + tokens[3] + "'");
  record.addr = *addr;
  record.bytes = static_cast<uint32_t>(*bytes);
  const std::string initiator = tokens.size() == 5 ? tokens[4] : "trace";
  if (!valid_name(initiator)) fail("bad initiator name '" + initiator + "'");
  return initiator;
}

uint32_t burst_bytes_of(const DdrTraceContext& c) {
  return c.device != nullptr && c.device->model == DdrModelKind::kJedec
             ? c.device->geometry.burst_bytes()
             : 64;
}

std::string parse_ramulator_ls(const std::vector<std::string>& tokens, DdrTraceRecord& record,
                               const DdrTraceContext& c, const Fail& fail) {
  if (tokens.size() != 2) fail("expected 'LD|ST <address>'");
  parse_direction(tokens[0], "LD", "ST", record, fail);
  std::optional<uint64_t> addr = parse_u64(tokens[1]);
  if (!addr) fail("bad address '" + tokens[1] + "'");
  record.addr = *addr;
  record.bytes = burst_bytes_of(c);
  return "trace";
}

std::string parse_ramulator_rw(const std::vector<std::string>& tokens, DdrTraceRecord& record,
                               const DdrTraceContext& c, const Fail& fail) {
  if (tokens.size() != 2) fail("expected 'R|W <ch>,<rank>,<bg>,<bank>,<row>,<column>'");
  parse_direction(tokens[0], "R", "W", record, fail);
  const std::vector<std::string> parts = tokens_of(tokens[1], ',');
  if (parts.size() != 6) fail("expected six address fields, got " + std::to_string(parts.size()));
  uint64_t v[6];
  for (size_t i = 0; i < 6; ++i) {
    std::optional<uint64_t> value = parse_u64(parts[i]);
    if (!value || *value > UINT32_MAX) fail("bad address field '" + parts[i] + "'");
    v[i] = *value;
  }
  const DdrGeometry& g = c.device->geometry;
  const uint64_t limits[6] = {
      g.channels,        g.ranks, g.bank_groups,
      g.banks_per_group, g.rows,  uint64_t{g.row_bytes} / g.burst_bytes() * g.burst_length};
  static const char* kNames[6] = {"channel", "rank", "bank group", "bank", "row", "column"};
  for (size_t i = 0; i < 6; ++i) {
    if (v[i] >= limits[i]) {
      fail(std::string(kNames[i]) + " " + std::to_string(v[i]) + " is beyond the device (" +
           std::to_string(limits[i]) + ")");
    }
  }
  DdrLocation loc;
  loc.channel = static_cast<uint32_t>(v[0]);
  loc.rank = static_cast<uint32_t>(v[1]);
  loc.bank_group = static_cast<uint32_t>(v[2]);
  loc.bank = static_cast<uint32_t>(v[3]);
  loc.row = static_cast<uint32_t>(v[4]);
  loc.column = static_cast<uint32_t>(v[5] / g.burst_length);
  record.addr = DdrAddressDecoder(c.device->mapping).encode(loc);
  record.bytes = g.burst_bytes();
  return "trace";
}

std::string parse_dramsys(const std::vector<std::string>& tokens, DdrTraceRecord& record,
                          const DdrTraceContext& c, const Fail& fail) {
  size_t i = 0;
  if (tokens.size() < 3 || tokens[0].back() != ':') {
    fail("expected '<cycle>: [(<bytes>)] read|write <hex address>'");
  }
  std::optional<uint64_t> cycle = parse_u64(tokens[0].substr(0, tokens[0].size() - 1));
  if (!cycle) fail("bad time '" + tokens[0] + "' (player clock cycles)");
  record.time_ps = static_cast<uint64_t>(std::llround(*cycle * 1e6 / c.clock_mhz));
  ++i;
  record.bytes = burst_bytes_of(c);
  if (tokens[i].front() == '(') {
    const std::string len =
        tokens[i].substr(1, tokens[i].size() - (tokens[i].back() == ')' ? 2 : 1));
    std::optional<uint64_t> bytes = parse_u64(len);
    if (!bytes || *bytes == 0 || *bytes > UINT32_MAX) fail("bad length '" + tokens[i] + "'");
    record.bytes = static_cast<uint32_t>(*bytes);
    ++i;
  }
  if (i + 1 >= tokens.size()) fail("expected read or write and an address");
  parse_direction(tokens[i], "read", "write", record, fail);
  ++i;
  std::string hex = tokens[i];
  if (hex.rfind("0x", 0) != 0 && hex.rfind("0X", 0) != 0) hex = "0x" + hex;
  std::optional<uint64_t> addr = parse_u64(hex);
  if (!addr) fail("bad address '" + tokens[i] + "' (hexadecimal)");
  record.addr = *addr;
  return "trace";
}

}  // namespace

DdrTraceFormat parse_ddr_trace_format(const std::string& name, const std::string& what) {
  std::string choices;
  for (const auto& f : kFormats) {
    if (name == f.name) return f.format;
    choices += std::string(choices.empty() ? "" : ", ") + f.name;
  }
  throw ConfigError(what + ": unknown trace format '" + name + "' (expected " + choices + ")");
}

const char* to_string(DdrTraceFormat format) {
  for (const auto& f : kFormats) {
    if (f.format == format) return f.name;
  }
  return "?";
}

DdrTrace parse_ddr_trace(std::istream& in, const std::string& name, uint64_t capacity,
                         const DdrTraceContext& context) {
  if (context.format == DdrTraceFormat::kRamulatorReadWrite &&
      (context.device == nullptr || context.device->model != DdrModelKind::kJedec)) {
    throw ConfigError(name + ": the ramulator-rw format needs a jedec DDR preset");
  }
  if (!(context.clock_mhz > 0)) throw ConfigError(name + ": the trace clock must be > 0 MHz");
  DdrTrace trace;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    const Fail fail = [&](const std::string& message) {
      throw ConfigError(name + ":" + std::to_string(number) + ": " + message);
    };
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    const std::vector<std::string> tokens = tokens_of(line, ' ');
    if (tokens.empty()) continue;
    DdrTraceRecord record;
    std::string initiator;
    switch (context.format) {
      case DdrTraceFormat::kSocsim:
        initiator = parse_socsim(tokens, record, fail);
        break;
      case DdrTraceFormat::kRamulatorLoadStore:
        initiator = parse_ramulator_ls(tokens, record, context, fail);
        break;
      case DdrTraceFormat::kRamulatorReadWrite:
        initiator = parse_ramulator_rw(tokens, record, context, fail);
        break;
      case DdrTraceFormat::kDramsys:
        initiator = parse_dramsys(tokens, record, context, fail);
        break;
    }
    if (record.addr >= capacity || record.bytes > capacity - record.addr) {
      std::ostringstream msg;
      msg << "request [0x" << std::hex << record.addr << ", 0x" << record.addr + record.bytes
          << ") is outside the device (0x" << capacity << " bytes)";
      fail(msg.str());
    }
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

DdrTrace load_ddr_trace(const std::string& file, uint64_t capacity,
                        const DdrTraceContext& context) {
  check_input_file(file, kMaxTraceFileBytes, "trace file");
  std::ifstream in(file);
  if (!in) throw ConfigError(file + ": cannot open trace file");
  return parse_ddr_trace(in, file, capacity, context);
}

void write_ddr_trace(std::ostream& out, const DdrTrace& trace, const DdrTraceContext& context) {
  const bool ramulator = context.format == DdrTraceFormat::kRamulatorLoadStore ||
                         context.format == DdrTraceFormat::kRamulatorReadWrite;
  if (context.format == DdrTraceFormat::kRamulatorReadWrite &&
      (context.device == nullptr || context.device->model != DdrModelKind::kJedec)) {
    throw ConfigError("the ramulator-rw format needs a jedec DDR preset");
  }
  const uint32_t burst = burst_bytes_of(context);
  std::unique_ptr<DdrAddressDecoder> decoder;
  if (context.device != nullptr && context.device->model == DdrModelKind::kJedec) {
    decoder = std::make_unique<DdrAddressDecoder>(context.device->mapping);
  }
  for (size_t i = 0; i < trace.records.size(); ++i) {
    const DdrTraceRecord& r = trace.records[i];
    if (ramulator && r.addr % burst != 0) {
      throw ConfigError("record " + std::to_string(i + 1) + ": address 0x" +
                        (std::ostringstream() << std::hex << r.addr).str() +
                        " is not at a burst boundary (" + std::to_string(burst) +
                        " bytes), which the Ramulator formats need");
    }
    switch (context.format) {
      case DdrTraceFormat::kSocsim:
        out << r.time_ps << "ps " << (r.is_write ? 'W' : 'R') << " 0x" << std::hex << r.addr
            << std::dec << ' ' << r.bytes;
        if (trace.initiators.size() > 1) out << ' ' << trace.initiators[r.initiator];
        out << '\n';
        break;
      case DdrTraceFormat::kRamulatorLoadStore:
        for (uint64_t a = r.addr; a < r.addr + r.bytes; a += burst) {
          out << (r.is_write ? "ST" : "LD") << " 0x" << std::hex << a << std::dec << '\n';
        }
        break;
      case DdrTraceFormat::kRamulatorReadWrite:
        for (uint64_t a = r.addr; a < r.addr + r.bytes; a += burst) {
          const DdrLocation loc = decoder->decode(a);
          out << (r.is_write ? 'W' : 'R') << ' ' << loc.channel << ',' << loc.rank << ','
              << loc.bank_group << ',' << loc.bank << ',' << loc.row << ','
              << uint64_t{loc.column} * context.device->geometry.burst_length << '\n';
        }
        break;
      case DdrTraceFormat::kDramsys: {
        const uint64_t cycle =
            static_cast<uint64_t>(std::llround(r.time_ps * context.clock_mhz / 1e6));
        out << cycle << ":\t(" << r.bytes << ")\t" << (r.is_write ? "write" : "read") << "\t0x"
            << std::hex << r.addr << std::dec << '\n';
        break;
      }
    }
  }
}

}  // namespace socsim
