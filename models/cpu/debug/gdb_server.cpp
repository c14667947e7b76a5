#include "models/cpu/debug/gdb_server.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace socsim {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr size_t kPacketSize = GdbServer::kPacketSize;

std::string hex_bytes(const uint8_t* data, size_t size) {
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out += kHexDigits[data[i] >> 4];
    out += kHexDigits[data[i] & 15];
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes pairs of hex digits; false on a bad digit or an odd count.
bool unhex(const std::string& text, std::vector<uint8_t>* out) {
  if (text.size() % 2 != 0) return false;
  out->clear();
  for (size_t i = 0; i < text.size(); i += 2) {
    const int hi = hex_value(text[i]), lo = hex_value(text[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return true;
}

/// A hex number (as in "m80000000,4"); false when `text` is empty or not hex.
bool parse_hex(const std::string& text, uint64_t* value) {
  if (text.empty() || text.size() > 16) return false;
  uint64_t v = 0;
  for (char c : text) {
    const int d = hex_value(c);
    if (d < 0) return false;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  *value = v;
  return true;
}

/// A 32-bit register value in target (little-endian) byte order.
std::string hex_register(uint32_t value) {
  const uint8_t bytes[4] = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                            static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
  return hex_bytes(bytes, 4);
}

bool unhex_register(const std::string& text, uint32_t* value) {
  std::vector<uint8_t> b;
  if (!unhex(text, &b) || b.size() != 4) return false;
  *value = b[0] | b[1] << 8 | b[2] << 16 | static_cast<uint32_t>(b[3]) << 24;
  return true;
}

std::string hex2(unsigned value) {
  char buf[4];
  std::snprintf(buf, sizeof buf, "%02x", value & 0xFF);
  return buf;
}

/// Escapes the bytes the protocol reserves ('#', '$', '}', '*') in binary reply data.
std::string escape_binary(const std::string& data) {
  std::string out;
  for (char c : data) {
    if (c == '#' || c == '$' || c == '}' || c == '*') {
      out += '}';
      out += static_cast<char>(c ^ 0x20);
    } else {
      out += c;
    }
  }
  return out;
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

/// Splits "a,b" at the first `sep`.
bool split(const std::string& s, char sep, std::string* a, std::string* b) {
  const size_t at = s.find(sep);
  if (at == std::string::npos) return false;
  *a = s.substr(0, at);
  *b = s.substr(at + 1);
  return true;
}

}  // namespace

std::string GdbServer::frame(const std::string& payload) {
  unsigned sum = 0;
  for (char c : payload) sum += static_cast<uint8_t>(c);
  return "$" + payload + "#" + hex2(sum);
}

bool GdbServer::send_packet(const std::string& payload) {
  const std::string packet = frame(payload);
  for (int attempt = 0; attempt < 8; ++attempt) {
    if (!transport_.write(packet)) return false;
    if (!ack_) return true;
    // Wait for the acknowledgement; '-' asks for the packet again.
    char c;
    do {
      if (!transport_.read_byte(&c)) return false;
      if (c == 0x03) interrupt_pending_ = true;
    } while (c != '+' && c != '-');
    if (c == '+') return true;
  }
  return false;
}

std::optional<std::string> GdbServer::read_packet() {
  for (;;) {
    char c;
    do {
      if (!transport_.read_byte(&c)) return std::nullopt;
      // Outside a packet: acknowledgements and a late interrupt byte are dropped.
    } while (c != '$');
    std::string payload;
    unsigned sum = 0;
    bool escaped = false;
    for (size_t length = 0;; ++length) {
      if (!transport_.read_byte(&c)) return std::nullopt;
      if (c == '#') break;
      if (length == kPacketSize) {
        error_ = "GDB sent a packet longer than the announced PacketSize (" +
                 std::to_string(kPacketSize) + " bytes): connection closed";
        transport_.close();
        return std::nullopt;
      }
      sum += static_cast<uint8_t>(c);
      if (escaped) {
        payload += static_cast<char>(c ^ 0x20);
        escaped = false;
      } else if (c == '}') {
        escaped = true;
      } else {
        payload += c;
      }
    }
    char cs[2];
    if (!transport_.read_byte(&cs[0]) || !transport_.read_byte(&cs[1])) return std::nullopt;
    const int hi = hex_value(cs[0]), lo = hex_value(cs[1]);
    const bool good = hi >= 0 && lo >= 0 && static_cast<unsigned>(hi << 4 | lo) == (sum & 0xFF);
    if (ack_) {
      if (!transport_.write(good ? "+" : "-")) return std::nullopt;
    }
    if (good || !ack_) return payload;
  }
}

GdbServer::Resume GdbServer::serve(const std::string& stop_reply) {
  // A read or write that failed: the connection ended, or the host asked to stop.
  const auto ended = [this] {
    return transport_.stop_requested() ? Resume::kHostStop : Resume::kDetach;
  };
  if (!stop_reply.empty()) {
    last_stop_ = stop_reply;
    if (!send_packet(stop_reply)) return ended();
  }
  for (;;) {
    const std::optional<std::string> packet = read_packet();
    if (!packet) return ended();
    std::optional<Resume> resume;
    const std::string reply = handle(*packet, &resume);
    if (resume == Resume::kContinue || resume == Resume::kStep || resume == Resume::kRangeStep) {
      return *resume;
    }
    // `k` has no reply; `D` and `vKill` are answered before the stub lets go.
    if (packet != std::string("k") && !send_packet(reply) && !resume) return ended();
    if (resume) return *resume;
    if (*packet == "QStartNoAckMode") ack_ = false;  // after its own acknowledged "OK"
  }
}

bool GdbServer::interrupt_requested() {
  char c;
  while (transport_.poll_byte(&c)) {
    if (c == 0x03) interrupt_pending_ = true;
  }
  const bool pending = interrupt_pending_;
  interrupt_pending_ = false;
  return pending;
}

void GdbServer::console_output(const std::string& text) {
  send_packet("O" + hex_bytes(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

void GdbServer::exited(int code) { send_packet("W" + hex2(static_cast<unsigned>(code))); }

void GdbServer::terminated(int signal) { send_packet("X" + hex2(static_cast<unsigned>(signal))); }

bool GdbServer::breakpoint_at(uint32_t pc) const {
  return std::find(breakpoints_.begin(), breakpoints_.end(), pc) != breakpoints_.end();
}

std::string GdbServer::breakpoint_stop(uint32_t pc) const {
  if (!swbreak_) return trap_stop();
  for (size_t i = 0; i < breakpoints_.size(); ++i) {
    if (breakpoints_[i] == pc) return breakpoint_soft_[i] ? "T05swbreak:;" : "T05hwbreak:;";
  }
  return trap_stop();
}

std::optional<std::string> GdbServer::watch_hit(uint32_t addr, uint32_t size, bool write) const {
  for (const Watchpoint& w : watchpoints_) {
    const bool kind = w.kind == WatchKind::kAccess || (write == (w.kind == WatchKind::kWrite));
    const bool overlap = addr < w.addr + w.size && w.addr < addr + size;
    if (kind && overlap) {
      const char* reason =
          w.kind == WatchKind::kWrite ? "watch" : w.kind == WatchKind::kRead ? "rwatch" : "awatch";
      char buf[32];
      std::snprintf(buf, sizeof buf, "%s:%x;", reason, w.addr);
      return std::string(buf);
    }
  }
  return std::nullopt;
}

std::string GdbServer::handle(const std::string& packet, std::optional<Resume>* resume) {
  if (packet.empty()) return "";
  const std::string args = packet.substr(1);
  switch (packet[0]) {
    case '?':
      return last_stop_;
    case 'g':
      return read_registers();
    case 'G':
      return write_registers(args);
    case 'p': {
      uint64_t regnum;
      if (!parse_hex(args, &regnum)) return "E01";
      uint32_t value;
      return target_.read_register(static_cast<unsigned>(regnum), &value) ? hex_register(value)
                                                                           : "xxxxxxxx";
    }
    case 'P': {
      std::string reg, val;
      uint64_t regnum;
      uint32_t value;
      if (!split(args, '=', &reg, &val) || !parse_hex(reg, &regnum) ||
          !unhex_register(val, &value)) {
        return "E01";
      }
      return target_.write_register(static_cast<unsigned>(regnum), value) ? "OK" : "E02";
    }
    case 'm':
      return read_memory(args);
    case 'M':
      return write_memory(args, false);
    case 'X':
      return write_memory(args, true);
    case 'c':
    case 'C':
      *resume = Resume::kContinue;
      return "";
    case 's':
    case 'S':
      *resume = Resume::kStep;
      return "";
    case 'Z':
    case 'z':
      return breakpoint(args, packet[0] == 'Z');
    case 'q':
      return query(packet);
    case 'Q':
      return packet == "QStartNoAckMode" ? "OK" : "";
    case 'v':
      return v_packet(packet, resume);
    case 'H':
    case 'T':
      return "OK";  // one thread
    case 'D':
      *resume = Resume::kDetach;
      return "OK";
    case 'k':
      *resume = Resume::kKill;
      return "";
    default:
      return "";  // not supported
  }
}

std::string GdbServer::read_registers() {
  std::string out;
  for (unsigned r = 0; r < kGdbGRegisters; ++r) {
    uint32_t value;
    out += target_.read_register(r, &value) ? hex_register(value) : "xxxxxxxx";
  }
  return out;
}

std::string GdbServer::write_registers(const std::string& hex) {
  if (hex.size() % 8 != 0) return "E01";
  for (unsigned r = 0; r * 8 < hex.size(); ++r) {
    uint32_t value, now;
    if (!unhex_register(hex.substr(r * 8, 8), &value)) return "E01";
    // GDB writes back every register of the packet: only those that change need the target.
    if (target_.read_register(r, &now) && now == value) continue;
    if (!target_.write_register(r, value)) return "E02";
  }
  return "OK";
}

std::string GdbServer::read_memory(const std::string& args) {
  std::string a, l;
  uint64_t addr, len;
  if (!split(args, ',', &a, &l) || !parse_hex(a, &addr) || !parse_hex(l, &len)) return "E01";
  len = std::min<uint64_t>(len, kPacketSize / 2);
  if (addr + len > (uint64_t{1} << 32)) return "E01";
  std::vector<uint8_t> data(len);
  // GDB asks for whole ranges (a stack frame, a string); give what is readable from the
  // start, as the protocol allows a partial read.
  uint32_t got = 0;
  if (len != 0 && target_.read_memory(static_cast<uint32_t>(addr), data.data(),
                                      static_cast<uint32_t>(len))) {
    got = static_cast<uint32_t>(len);
  } else {
    while (got < len && target_.read_memory(static_cast<uint32_t>(addr + got), &data[got], 1)) {
      ++got;
    }
  }
  if (got == 0 && len != 0) return "E01";
  return hex_bytes(data.data(), got);
}

std::string GdbServer::write_memory(const std::string& args, bool binary) {
  std::string where, data_text, a, l;
  uint64_t addr, len;
  if (!split(args, ':', &where, &data_text) || !split(where, ',', &a, &l) ||
      !parse_hex(a, &addr) || !parse_hex(l, &len)) {
    return "E01";
  }
  std::vector<uint8_t> data;
  if (binary) {
    data.assign(data_text.begin(), data_text.end());  // read_packet() removed the escapes
  } else if (!unhex(data_text, &data)) {
    return "E01";
  }
  if (data.size() != len || addr + len > (uint64_t{1} << 32)) return "E01";
  if (len == 0) return "OK";
  return target_.write_memory(static_cast<uint32_t>(addr), data.data(),
                              static_cast<uint32_t>(len))
             ? "OK"
             : "E02";
}

std::string GdbServer::breakpoint(const std::string& args, bool insert) {
  // type,addr,kind[;conditions]
  const std::string spec = args.substr(0, args.find(';'));
  std::string type_text, rest, addr_text, kind_text;
  uint64_t type, addr, kind;
  if (!split(spec, ',', &type_text, &rest) || !split(rest, ',', &addr_text, &kind_text) ||
      !parse_hex(type_text, &type) || !parse_hex(addr_text, &addr) ||
      !parse_hex(kind_text, &kind) || addr > 0xFFFFFFFFu) {
    return "E01";
  }
  const uint32_t a = static_cast<uint32_t>(addr);
  if (type <= 1) {
    if (insert) {
      breakpoints_.push_back(a);
      breakpoint_soft_.push_back(type == 0);
    } else {
      for (size_t i = 0; i < breakpoints_.size(); ++i) {
        if (breakpoints_[i] == a && breakpoint_soft_[i] == (type == 0)) {
          breakpoints_.erase(breakpoints_.begin() + static_cast<long>(i));
          breakpoint_soft_.erase(breakpoint_soft_.begin() + static_cast<long>(i));
          break;
        }
      }
    }
    return "OK";
  }
  if (type <= 4) {
    if (kind == 0 || kind > 0x10000) return "E01";
    const Watchpoint w{static_cast<WatchKind>(type), a, static_cast<uint32_t>(kind)};
    if (insert) {
      watchpoints_.push_back(w);
    } else {
      auto it = std::find_if(watchpoints_.begin(), watchpoints_.end(), [&](const Watchpoint& x) {
        return x.kind == w.kind && x.addr == w.addr && x.size == w.size;
      });
      if (it != watchpoints_.end()) watchpoints_.erase(it);
    }
    return "OK";
  }
  return "";
}

std::string GdbServer::query(const std::string& packet) {
  if (starts_with(packet, "qSupported")) {
    swbreak_ = packet.find("swbreak+") != std::string::npos;
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "PacketSize=%zx;qXfer:features:read+;swbreak+;hwbreak+;QStartNoAckMode+;"
                  "vContSupported+",
                  kPacketSize);
    return buf;
  }
  if (starts_with(packet, "qXfer:features:read:")) {
    // qXfer:features:read:ANNEX:OFFSET,LENGTH
    const std::string rest = packet.substr(sizeof("qXfer:features:read:") - 1);
    std::string annex, range, off_text, len_text;
    uint64_t offset, length;
    if (!split(rest, ':', &annex, &range) || !split(range, ',', &off_text, &len_text) ||
        !parse_hex(off_text, &offset) || !parse_hex(len_text, &length)) {
      return "E01";
    }
    if (annex != "target.xml") return "E00";
    const std::string& xml = riscv_target_xml();
    if (offset >= xml.size()) return "l";
    const std::string part = xml.substr(offset, std::min<uint64_t>(length, kPacketSize / 2));
    return (offset + part.size() >= xml.size() ? "l" : "m") + escape_binary(part);
  }
  if (starts_with(packet, "qRcmd,")) {
    std::vector<uint8_t> command;
    if (!unhex(packet.substr(6), &command)) return "E01";
    const std::string output = target_.monitor(std::string(command.begin(), command.end()));
    if (output.empty()) return "OK";
    return hex_bytes(reinterpret_cast<const uint8_t*>(output.data()), output.size());
  }
  if (packet == "qAttached") return "1";
  if (packet == "qC") return "QC1";
  if (packet == "qfThreadInfo") return "m1";
  if (packet == "qsThreadInfo") return "l";
  if (starts_with(packet, "qSymbol")) return "OK";
  return "";
}

std::string GdbServer::v_packet(const std::string& packet, std::optional<Resume>* resume) {
  if (packet == "vCont?") return "vCont;c;C;s;S;r";
  if (starts_with(packet, "vCont;")) {
    // One thread: the first action decides.
    const char action = packet.size() > 6 ? packet[6] : 0;
    if (action == 'c' || action == 'C') {
      *resume = Resume::kContinue;
    } else if (action == 's' || action == 'S') {
      *resume = Resume::kStep;
    } else if (action == 'r') {
      // rSTART,END[:thread]: step while the pc stays in [START, END).
      const std::string spec = packet.substr(7, packet.find_first_of(":;", 7) - 7);
      std::string first, end;
      uint64_t a, b;
      if (!split(spec, ',', &first, &end) || !parse_hex(first, &a) || !parse_hex(end, &b) ||
          a > 0xFFFFFFFFu || b > 0x100000000u) {
        return "E01";
      }
      range_ = {static_cast<uint32_t>(a),
                static_cast<uint32_t>(std::min<uint64_t>(b, 0xFFFFFFFFu))};
      *resume = Resume::kRangeStep;
    } else {
      return "E01";
    }
    return "";
  }
  if (starts_with(packet, "vKill")) {
    *resume = Resume::kKill;
    return "OK";
  }
  return "";
}

}  // namespace socsim
