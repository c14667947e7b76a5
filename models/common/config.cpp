#include "models/common/config.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace socsim {

namespace {

std::string strip_underscores(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '_') out.push_back(c);
  }
  return out;
}

}  // namespace

std::optional<uint64_t> parse_u64(const std::string& raw) {
  std::string text = strip_underscores(raw);
  if (text.empty() || text[0] == '-' || text[0] == '+' || text[0] == ' ') return std::nullopt;
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) base = 16;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text = text.substr(2);
  }
  errno = 0;
  char* end = nullptr;
  unsigned long long value = std::strtoull(text.c_str(), &end, base);
  if (errno != 0 || end == text.c_str() || *end != '\0') return std::nullopt;
  return static_cast<uint64_t>(value);
}

ConfigNode::ConfigNode(YAML::Node node, std::string file, std::string path)
    : node_(std::move(node)),
      file_(std::make_shared<const std::string>(std::move(file))),
      path_(std::move(path)),
      keys_read_(std::make_shared<KeysRead>()) {}

ConfigNode::ConfigNode(YAML::Node node, const ConfigNode& parent, std::string path)
    : node_(std::move(node)),
      file_(parent.file_),
      path_(std::move(path)),
      keys_read_(parent.keys_read_) {}

ConfigNode ConfigNode::load_file(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw ConfigError(file + ": cannot open file");
  std::stringstream text;
  text << in.rdbuf();
  return load_string(text.str(), file);
}

ConfigNode ConfigNode::load_string(const std::string& text, const std::string& name) {
  try {
    YAML::Node root = YAML::Load(text);
    if (!root.IsDefined() || root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    return ConfigNode(root, name, "");
  } catch (const YAML::Exception& e) {
    std::ostringstream msg;
    msg << name << ":" << (e.mark.line + 1) << ":" << (e.mark.column + 1)
        << ": YAML syntax error: " << e.msg;
    throw ConfigError(msg.str());
  }
}

std::string ConfigNode::where() const {
  std::ostringstream out;
  out << *file_;
  const YAML::Mark mark = node_.Mark();
  if (node_.Tag() == "!override") {
    out << " (command line --set)";
  } else if (!mark.is_null()) {
    out << ":" << (mark.line + 1);
  }
  if (!path_.empty()) out << ": key '" << path_ << "'";
  return out.str();
}

void ConfigNode::fail(const std::string& message) const {
  throw ConfigError(where() + ": " + message);
}

std::string ConfigNode::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

bool ConfigNode::has(const std::string& key) const {
  return node_.IsMap() && node_[key].IsDefined();
}

std::optional<ConfigNode> ConfigNode::find(const std::string& key) const {
  if (!node_.IsMap()) {
    if (node_.IsNull()) return std::nullopt;
    fail("expected a map with key '" + key + "'");
  }
  YAML::Node child = node_[key];
  if (!child.IsDefined()) return std::nullopt;
  keys_read().insert(key);
  return ConfigNode(child, *this, child_path(key));
}

ConfigNode ConfigNode::at(const std::string& key) const {
  std::optional<ConfigNode> child = find(key);
  if (!child) fail("missing required key '" + child_path(key) + "'");
  return *child;
}

std::vector<std::pair<std::string, ConfigNode>> ConfigNode::entries() const {
  std::vector<std::pair<std::string, ConfigNode>> out;
  if (node_.IsNull()) return out;
  if (!node_.IsMap()) fail("expected a map");
  for (const auto& kv : node_) {
    const std::string key = kv.first.as<std::string>();
    keys_read().insert(key);
    out.emplace_back(key, ConfigNode(kv.second, *this, child_path(key)));
  }
  return out;
}

void ConfigNode::reject_unknown_keys() const {
  if (!node_.IsMap()) return;
  for (const auto& kv : node_) {
    const std::string key = kv.first.as<std::string>();
    if (keys_read().count(key) == 0) {
      ConfigNode(kv.first, *this, child_path(key)).fail("unknown key '" + key + "'");
    }
  }
}

std::vector<ConfigNode> ConfigNode::items() const {
  std::vector<ConfigNode> out;
  if (node_.IsNull()) return out;
  if (!node_.IsSequence()) fail("expected a list");
  size_t index = 0;
  for (const auto& item : node_) {
    out.push_back(ConfigNode(item, *this, path_ + "[" + std::to_string(index++) + "]"));
  }
  return out;
}

std::string ConfigNode::scalar_text() const {
  if (!node_.IsScalar()) fail("expected a single value");
  return node_.Scalar();
}

std::string ConfigNode::as_string() const { return scalar_text(); }

bool ConfigNode::as_bool() const {
  const std::string text = scalar_text();
  if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "0") return false;
  fail("expected true or false, got '" + text + "'");
}

uint64_t ConfigNode::as_u64() const {
  const std::string text = scalar_text();
  std::optional<uint64_t> value = parse_u64(text);
  if (!value) fail("expected a non-negative integer, got '" + text + "'");
  return *value;
}

int64_t ConfigNode::as_i64() const {
  std::string text = scalar_text();
  const bool negative = !text.empty() && text[0] == '-';
  std::optional<uint64_t> magnitude = parse_u64(negative ? text.substr(1) : text);
  if (!magnitude || *magnitude > static_cast<uint64_t>(INT64_MAX)) {
    fail("expected an integer, got '" + text + "'");
  }
  return negative ? -static_cast<int64_t>(*magnitude) : static_cast<int64_t>(*magnitude);
}

double ConfigNode::as_double() const {
  const std::string text = strip_underscores(scalar_text());
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || errno != 0 || *end != '\0' || !std::isfinite(value)) {
    fail("expected a number, got '" + scalar_text() + "'");
  }
  return value;
}

uint64_t ConfigNode::as_size() const {
  const std::string text = strip_underscores(scalar_text());
  static const std::pair<const char*, uint64_t> kSuffixes[] = {
      {"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}, {"G", 1ull << 30},
      {"M", 1ull << 20},   {"K", 1ull << 10},   {"B", 1}};
  for (const auto& [suffix, scale] : kSuffixes) {
    const std::string s(suffix);
    if (text.size() > s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0) {
      std::string number = text.substr(0, text.size() - s.size());
      while (!number.empty() && number.back() == ' ') number.pop_back();
      std::optional<uint64_t> value = parse_u64(number);
      if (!value) break;
      return *value * scale;
    }
  }
  std::optional<uint64_t> value = parse_u64(text);
  if (!value) fail("expected a size (e.g. 4096, 0x1000, 64KiB, 4MiB), got '" + text + "'");
  return *value;
}

uint64_t ConfigNode::u64_or(const std::string& key, uint64_t fallback) const {
  auto child = find(key);
  return child ? child->as_u64() : fallback;
}
double ConfigNode::double_or(const std::string& key, double fallback) const {
  auto child = find(key);
  return child ? child->as_double() : fallback;
}
std::string ConfigNode::string_or(const std::string& key, const std::string& fallback) const {
  auto child = find(key);
  return child ? child->as_string() : fallback;
}
bool ConfigNode::bool_or(const std::string& key, bool fallback) const {
  auto child = find(key);
  return child ? child->as_bool() : fallback;
}
uint64_t ConfigNode::size_or(const std::string& key, uint64_t fallback) const {
  auto child = find(key);
  return child ? child->as_size() : fallback;
}

void apply_override(YAML::Node root, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw ConfigError("--set " + assignment + ": expected key.path=value");
  }
  const std::string path = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);

  std::vector<std::string> keys;
  std::stringstream parts(path);
  for (std::string key; std::getline(parts, key, '.');) {
    if (key.empty()) throw ConfigError("--set " + assignment + ": empty key in path");
    keys.push_back(key);
  }
  YAML::Node node = root;
  std::string walked;
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    walked += (i ? "." : "") + keys[i];
    YAML::Node next = node[keys[i]];
    if (!next.IsDefined() || !next.IsMap()) {
      throw ConfigError("--set " + assignment + ": '" + walked + "' is not a map in the config");
    }
    node.reset(next);
  }
  if (!node.IsMap()) throw ConfigError("--set " + assignment + ": the config root is not a map");
  YAML::Node existing = node[keys.back()];
  if (existing.IsDefined() && !existing.IsScalar() && !existing.IsNull()) {
    throw ConfigError("--set " + assignment + ": '" + path + "' is not a single value");
  }
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + assignment + ": cannot parse value: " + e.msg);
  }
  if (!value.IsScalar()) value = YAML::Node(value_text);
  value.SetTag("!override");
  node[keys.back()] = value;
}

}  // namespace socsim
