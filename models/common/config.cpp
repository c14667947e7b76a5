#include "models/common/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "models/common/input_file.h"

namespace socsim {

/// One node of a configuration tree: parsed YAML plus where each value came from, which
/// keys a reader asked for and read, and the defaults it used.
struct ConfigItem {
  enum class Type { kNull, kScalar, kMap, kSequence };
  using Entry = std::pair<std::string, std::shared_ptr<ConfigItem>>;

  Type type = Type::kNull;
  std::string scalar;
  std::vector<Entry> entries;                      ///< kMap, in order
  std::vector<std::shared_ptr<ConfigItem>> items;  ///< kSequence
  ConfigOrigin origin;
  int key_line = 0;         ///< line of the key naming this node in its map (0: unknown)
  bool is_default = false;  ///< supplied by a reader for an absent key
  bool created = false;     ///< a map made by `--set` on the way to its key
  bool merged = false;      ///< the preset named by its `preset` key is merged in
  std::string preset_file;  ///< that preset
  std::set<std::string> keys_read;
  std::vector<std::string> keys_asked;

  std::shared_ptr<ConfigItem> find(const std::string& key) const {
    for (const Entry& e : entries) {
      if (e.first == key) return e.second;
    }
    return nullptr;
  }
  void put(const std::string& key, std::shared_ptr<ConfigItem> value) {
    for (Entry& e : entries) {
      if (e.first == key) {
        e.second = std::move(value);
        return;
      }
    }
    entries.emplace_back(key, std::move(value));
  }
  void ask(const std::string& key) {
    if (std::find(keys_asked.begin(), keys_asked.end(), key) == keys_asked.end()) {
      keys_asked.push_back(key);
    }
  }
};

namespace {

using Item = ConfigItem;
using ItemPtr = std::shared_ptr<ConfigItem>;

constexpr int kMaxDepth = 64;
/// Values of one document after aliases are expanded: a few aliases of aliases make a
/// small file name billions of values ("billion laughs"); real configurations have hundreds.
constexpr size_t kMaxValues = 100000;

std::string strip_underscores(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c != '_') out.push_back(c);
  }
  return out;
}

std::string with_key(const std::string& where, const std::string& path) {
  return path.empty() ? where : where + ": key '" + path + "'";
}

// Offset of the first byte that is not part of well-formed UTF-8 (or is NUL), or npos.
size_t invalid_utf8_at(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned c = s[i];
    if (c == 0) return i;
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4, min = 0x10000;
    } else {
      return i;
    }
    if (i + len > n) return i;
    unsigned cp = c & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string::npos;
}

void check_utf8(const std::string& text, const std::string& name) {
  const size_t at = invalid_utf8_at(text);
  if (at == std::string::npos) return;
  const size_t line = 1 + std::count(text.begin(), text.begin() + at, '\n');
  const size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t column = line_start == std::string::npos || at == 0 ? at + 1 : at - line_start;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[at]));
  throw ConfigError(name + ":" + std::to_string(line) + ":" + std::to_string(column) +
                    ": not UTF-8 text (byte " + byte + ")");
}

// `budget`: values that may still be made (kMaxValues for a document).
ItemPtr convert(const YAML::Node& node, const std::string& file, const std::string& path,
                int depth, size_t& budget) {
  auto item = std::make_shared<Item>();
  item->origin.file = file;
  if (!node.Mark().is_null()) item->origin.line = node.Mark().line + 1;
  auto fail = [&](int line, const std::string& message) {
    throw ConfigError(with_key(file + ":" + std::to_string(line), path) + ": " + message);
  };
  if (depth > kMaxDepth) {
    fail(item->origin.line,
         "nested more than " + std::to_string(kMaxDepth) + " levels deep (a recursive alias?)");
  }
  if (budget == 0) {
    fail(item->origin.line, "more than " + std::to_string(kMaxValues) +
                                " values once aliases are expanded (aliases of aliases?)");
  }
  --budget;
  // Tags (`!!binary 400`, `!foo 400`) would be read as the plain values they annotate.
  // yaml-cpp gives "?" for an untagged node and "!" for a quoted scalar.
  if (node.Tag() != "?" && node.Tag() != "!" && !node.Tag().empty()) {
    const std::string core = "tag:yaml.org,2002:";
    const std::string tag =
        node.Tag().rfind(core, 0) == 0 ? "!!" + node.Tag().substr(core.size()) : node.Tag();
    fail(item->origin.line, "YAML tag '" + tag + "' not supported: give the plain value");
  }
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      item->type = Item::Type::kScalar;
      item->scalar = node.Scalar();
      break;
    case YAML::NodeType::Sequence: {
      item->type = Item::Type::kSequence;
      size_t index = 0;
      for (const YAML::Node& child : node) {
        item->items.push_back(
            convert(child, file, path + "[" + std::to_string(index++) + "]", depth + 1, budget));
      }
      break;
    }
    case YAML::NodeType::Map: {
      item->type = Item::Type::kMap;
      std::map<std::string, int> lines;  // key -> line: duplicates found in O(log n)
      for (const auto& kv : node) {
        const int key_line = kv.first.Mark().is_null() ? 0 : kv.first.Mark().line + 1;
        if (!kv.first.IsScalar()) {
          fail(key_line, "a key must be a single plain value, not a list, map or null");
        }
        const std::string key = kv.first.Scalar();
        const std::string child_path = path.empty() ? key : path + "." + key;
        const auto [first, fresh] = lines.emplace(key, key_line);
        if (!fresh) {
          throw ConfigError(with_key(file + ":" + std::to_string(key_line), child_path) +
                            ": duplicate key '" + key + "' (first given at line " +
                            std::to_string(first->second) + ")");
        }
        ItemPtr child = convert(kv.second, file, child_path, depth + 1, budget);
        child->key_line = key_line;
        item->entries.emplace_back(key, std::move(child));
      }
      break;
    }
    default:
      item->type = Item::Type::kNull;
      break;
  }
  return item;
}

// The 1-based line of the `index`-th document start marker (`---` at a line's start), 0 if
// there is none.
size_t document_marker_line(const std::string& text, size_t index) {
  size_t line = 1, seen = 0, at = 0;
  while (at < text.size()) {
    if (text.compare(at, 3, "---") == 0 &&
        (at + 3 == text.size() || std::isspace(static_cast<unsigned char>(text[at + 3])))) {
      if (++seen == index) return line;
    }
    const size_t newline = text.find('\n', at);
    if (newline == std::string::npos) break;
    at = newline + 1;
    ++line;
  }
  return 0;
}

ItemPtr parse(const std::string& text, const std::string& name) {
  check_utf8(text, name);
  YAML::Node root;
  try {
    // One document per file: a second one would be silently ignored.
    const std::vector<YAML::Node> documents = YAML::LoadAll(text);
    if (documents.size() > 1) {
      // The line of its `---`, else where yaml-cpp saw it start.
      const YAML::Node& extra = documents[1];
      size_t line = document_marker_line(text, text.compare(0, 3, "---") == 0 ? 2 : 1);
      if (line == 0 && !extra.Mark().is_null()) line = extra.Mark().line + 1;
      throw ConfigError(name + ":" + std::to_string(line) +
                        ": a second YAML document: a configuration file holds one");
    }
    if (!documents.empty()) root = documents[0];
  } catch (const YAML::Exception& e) {
    std::ostringstream msg;
    msg << name << ":" << (e.mark.line + 1) << ":" << (e.mark.column + 1)
        << ": YAML syntax error: " << e.msg;
    throw ConfigError(msg.str());
  }
  size_t budget = kMaxValues;
  ItemPtr item = convert(root, name, "", 0, budget);
  if (item->type == Item::Type::kNull) {
    item->type = Item::Type::kMap;
    item->origin.line = 1;
  }
  return item;
}

ItemPtr clone_as_preset(const Item& from) {
  auto copy = std::make_shared<Item>();
  copy->type = from.type;
  copy->scalar = from.scalar;
  copy->origin = from.origin;
  if (copy->origin.kind == ConfigOrigin::Kind::kFile)
    copy->origin.kind = ConfigOrigin::Kind::kPreset;
  copy->key_line = from.key_line;
  copy->merged = from.merged;
  copy->preset_file = from.preset_file;
  for (const Item::Entry& e : from.entries) {
    copy->entries.emplace_back(e.first, clone_as_preset(*e.second));
  }
  for (const ItemPtr& i : from.items) copy->items.push_back(clone_as_preset(*i));
  return copy;
}

// Overlays `section` on `preset`: the section's keys in its order (maps present in both
// merged key by key), then the preset's other keys in the preset's order.
void merge_over(Item& section, const Item& preset) {
  for (Item::Entry& e : section.entries) {
    ItemPtr from_preset = preset.find(e.first);
    if (!from_preset) continue;
    if (e.second->type == Item::Type::kNull) {
      const int key_line = e.second->key_line;
      e.second = clone_as_preset(*from_preset);
      e.second->key_line = key_line;
    } else if (e.second->type == Item::Type::kMap && from_preset->type == Item::Type::kMap) {
      merge_over(*e.second, *from_preset);
    }
  }
  for (const Item::Entry& p : preset.entries) {
    if (!section.find(p.first)) section.entries.emplace_back(p.first, clone_as_preset(*p.second));
  }
}

std::string folder_of(const std::string& file) {
  const std::string parent = std::filesystem::path(file).parent_path().string();
  return parent.empty() ? "." : parent;
}

// ---- scalar parsing ------------------------------------------------------------------------

std::optional<double> parse_double(const std::string& raw) {
  const std::string text = strip_underscores(raw);
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

// A size: the whole text as a number first (so 0x40000B is hex), else number plus suffix.
// Fails on overflow.
std::optional<uint64_t> parse_size(const std::string& raw) {
  const std::string text = strip_underscores(raw);
  if (std::optional<uint64_t> plain = parse_u64(text)) return plain;
  static const std::pair<const char*, uint64_t> kSuffixes[] = {{"GiB", 1ull << 30},
                                                               {"MiB", 1ull << 20},
                                                               {"KiB", 1ull << 10},
                                                               {"G", 1ull << 30},
                                                               {"M", 1ull << 20},
                                                               {"K", 1ull << 10},
                                                               {"B", 1}};
  for (const auto& [suffix, scale] : kSuffixes) {
    const std::string s(suffix);
    if (text.size() <= s.size() || text.compare(text.size() - s.size(), s.size(), s) != 0) {
      continue;
    }
    std::string number = text.substr(0, text.size() - s.size());
    while (!number.empty() && number.back() == ' ') number.pop_back();
    std::optional<uint64_t> value = parse_u64(number);
    if (!value || *value > UINT64_MAX / scale) return std::nullopt;
    return *value * scale;
  }
  return std::nullopt;
}

// Decimal for small and round numbers, hex for addresses and masks.
std::string format_unsigned(uint64_t v) {
  const std::string decimal = std::to_string(v);
  if (v < 0x10000 || (decimal.size() > 3 && decimal.compare(decimal.size() - 3, 3, "000") == 0)) {
    return decimal;
  }
  std::ostringstream out;
  out << "0x" << std::uppercase << std::hex << v;
  return out.str();
}

std::string format_double(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

// ---- dumping -------------------------------------------------------------------------------

bool plain_safe(const std::string& text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '/' &&
        c != '+' && c != '-') {
      return false;
    }
  }
  return text[0] != '-' || text.size() > 1;
}

std::string quoted(const std::string& text) {
  if (plain_safe(text)) return text;
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\x%02X", static_cast<unsigned char>(c));
          out += esc;
        } else {
          out.push_back(c);
        }
    }
  }
  return out + "\"";
}

bool all_scalars(const Item& seq) {
  for (const ItemPtr& i : seq.items) {
    if (i->type == Item::Type::kMap || i->type == Item::Type::kSequence) return false;
  }
  return true;
}

std::string inline_value(const Item& item) {
  switch (item.type) {
    case Item::Type::kNull:
      return "~";
    case Item::Type::kScalar:
      return quoted(item.scalar);
    case Item::Type::kMap:
      return "{}";
    case Item::Type::kSequence: {
      std::string out = "[";
      for (size_t i = 0; i < item.items.size(); ++i) {
        out += (i ? ", " : "") + inline_value(*item.items[i]);
      }
      return out + "]";
    }
  }
  return "~";
}

void dump_line(std::ostream& out, const std::string& text, const Item& item, bool origins) {
  out << text;
  if (origins) {
    const size_t column = 44;
    out << std::string(text.size() < column ? column - text.size() : 2, ' ') << "# "
        << item.origin.describe();
  }
  out << "\n";
}

void dump_item(std::ostream& out, const Item& item, int indent, bool origins);

void dump_entry(std::ostream& out, const std::string& lead, const Item& value, int indent,
                bool origins) {
  const bool block_map = value.type == Item::Type::kMap && !value.entries.empty();
  const bool block_seq =
      value.type == Item::Type::kSequence && !value.items.empty() && !all_scalars(value);
  if (block_map || block_seq) {
    out << lead << "\n";
    dump_item(out, value, indent + 2, origins);
  } else {
    dump_line(out, lead + " " + inline_value(value), value, origins);
  }
}

void dump_item(std::ostream& out, const Item& item, int indent, bool origins) {
  const std::string pad(indent, ' ');
  if (item.type == Item::Type::kMap) {
    for (const Item::Entry& e : item.entries) {
      dump_entry(out, pad + quoted(e.first) + ":", *e.second, indent, origins);
    }
  } else if (item.type == Item::Type::kSequence) {
    for (const ItemPtr& i : item.items) dump_entry(out, pad + "-", *i, indent, origins);
  } else {
    dump_line(out, pad + inline_value(item), item, origins);
  }
}

// ---- overrides -----------------------------------------------------------------------------

struct Assignment {
  std::vector<std::string> keys;
  std::string value;
};

Assignment split_assignment(const std::string& assignment) {
  check_utf8(assignment, "--set");
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw ConfigError("--set " + assignment + ": expected key.path=value");
  }
  Assignment a;
  a.value = assignment.substr(eq + 1);
  std::stringstream parts(assignment.substr(0, eq));
  for (std::string key; std::getline(parts, key, '.');) {
    if (key.empty()) throw ConfigError("--set " + assignment + ": empty key in path");
    a.keys.push_back(key);
  }
  if (assignment[eq - 1] == '.') throw ConfigError("--set " + assignment + ": empty key in path");
  return a;
}

// The value of `--set`: a scalar parsed as YAML (quotes removed), a list of scalars where
// `list` allows one, else the text itself.
ItemPtr override_value(const std::string& text, const std::string& assignment, bool list) {
  auto item = std::make_shared<Item>();
  item->type = Item::Type::kScalar;
  item->scalar = text;
  item->origin.kind = ConfigOrigin::Kind::kOverride;
  item->origin.assignment = assignment;
  YAML::Node parsed;
  try {
    parsed = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + assignment + ": cannot parse value: " + e.msg);
  }
  if (parsed.IsScalar()) {
    item->scalar = parsed.Scalar();
    return item;
  }
  if (!list || !parsed.IsSequence()) return item;
  for (const YAML::Node& n : parsed) {
    if (!n.IsScalar()) return item;
  }
  item->type = Item::Type::kSequence;
  item->scalar.clear();
  for (const YAML::Node& n : parsed) {
    auto element = std::make_shared<Item>();
    element->type = Item::Type::kScalar;
    element->scalar = n.Scalar();
    element->origin = item->origin;
    item->items.push_back(element);
  }
  return item;
}

}  // namespace

std::string format_size(uint64_t v) {
  static const std::pair<const char*, uint64_t> kUnits[] = {
      {"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}};
  for (const auto& [unit, scale] : kUnits) {
    if (v >= scale && v % scale == 0) return std::to_string(v / scale) + " " + unit;
  }
  return std::to_string(v);
}

// ---- free functions ------------------------------------------------------------------------

std::optional<uint64_t> parse_u64(const std::string& raw) {
  std::string text = strip_underscores(raw);
  if (text.empty() || !std::isalnum(static_cast<unsigned char>(text[0]))) return std::nullopt;
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

std::optional<std::string> nearest_word(const std::string& word,
                                        const std::vector<std::string>& candidates) {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const std::string w = lower(word);
  size_t best = std::string::npos;
  std::optional<std::string> found;
  for (const std::string& candidate : candidates) {
    const std::string c = lower(candidate);
    // Edit distance with adjacent transpositions (optimal string alignment): "iqr" is one
    // edit from "irq".
    std::vector<std::vector<size_t>> d(w.size() + 1, std::vector<size_t>(c.size() + 1));
    for (size_t i = 0; i <= w.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= c.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= w.size(); ++i) {
      for (size_t j = 1; j <= c.size(); ++j) {
        d[i][j] = std::min(
            {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (w[i - 1] == c[j - 1] ? 0 : 1)});
        if (i > 1 && j > 1 && w[i - 1] == c[j - 2] && w[i - 2] == c[j - 1]) {
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    const size_t distance = d[w.size()][c.size()];
    const size_t allowed = w.size() <= 4 ? 1 : w.size() <= 12 ? 2 : 3;
    if (distance <= allowed && distance < best) {
      best = distance;
      found = candidate;
    }
  }
  return found;
}

std::string ConfigOrigin::describe() const {
  switch (kind) {
    case Kind::kFile:
      return line > 0 ? file + ":" + std::to_string(line) : file;
    case Kind::kPreset:
      return "preset " + (line > 0 ? file + ":" + std::to_string(line) : file);
    case Kind::kOverride:
      return "--set " + assignment;
    case Kind::kDefault:
      return "default";
  }
  return "";
}

// ---- ConfigKey -----------------------------------------------------------------------------

ConfigKey ConfigKey::unsigned_in(std::string name, uint64_t lo, uint64_t hi, const char* fallback,
                                 std::string doc) {
  ConfigKey k;
  k.name = std::move(name), k.type = Type::kUnsigned, k.doc = std::move(doc);
  k.fallback = fallback, k.min_u = lo, k.max_u = hi;
  return k;
}

ConfigKey ConfigKey::size_in(std::string name, uint64_t lo, uint64_t hi, const char* fallback,
                             std::string doc) {
  ConfigKey k = unsigned_in(std::move(name), lo, hi, fallback, std::move(doc));
  k.type = Type::kSize;
  return k;
}

ConfigKey ConfigKey::number_in(std::string name, double lo, double hi, const char* fallback,
                               std::string doc) {
  ConfigKey k;
  k.name = std::move(name), k.type = Type::kNumber, k.doc = std::move(doc);
  k.fallback = fallback, k.min_d = lo, k.max_d = hi;
  return k;
}

ConfigKey ConfigKey::text(std::string name, const char* fallback, std::string doc) {
  ConfigKey k;
  k.name = std::move(name), k.type = Type::kText, k.doc = std::move(doc), k.fallback = fallback;
  return k;
}

ConfigKey ConfigKey::choice(std::string name, std::vector<std::string> choices,
                            const char* fallback, std::string doc) {
  ConfigKey k = text(std::move(name), fallback, std::move(doc));
  k.type = Type::kChoice;
  k.choices = std::move(choices);
  return k;
}

ConfigKey ConfigKey::boolean(std::string name, const char* fallback, std::string doc) {
  ConfigKey k = text(std::move(name), fallback, std::move(doc));
  k.type = Type::kBool;
  return k;
}

ConfigKey ConfigKey::choice_list(std::string name, std::vector<std::string> choices,
                                 std::string doc) {
  ConfigKey k = text(std::move(name), nullptr, std::move(doc));
  k.type = Type::kChoiceList;
  k.choices = std::move(choices);
  return k;
}

ConfigKey ConfigKey::bit_list(std::string name, uint64_t max_bit, std::string doc) {
  ConfigKey k = text(std::move(name), nullptr, std::move(doc));
  k.type = Type::kBitList;
  k.max_u = max_bit;
  return k;
}

std::optional<std::string> ConfigKey::range_error(uint64_t value) const {
  auto text = type == Type::kSize ? format_size : format_unsigned;
  const std::string range = text(min_u) + ".." + text(max_u);
  if (power_of_two && (value & (value - 1)) != 0) {
    return "must be a power of two in " + range + ", got " + text(value);
  }
  if (value < min_u || value > max_u) return "must be in " + range + ", got " + text(value);
  return std::nullopt;
}

std::optional<std::string> ConfigKey::range_error(double value, const std::string& text) const {
  if ((min_open ? value > min_d : value >= min_d) && value <= max_d) return std::nullopt;
  return "must be a number in " + std::string(min_open ? "(" : "[") + format_double(min_d) +
         ", " + format_double(max_d) + "], got " + text;
}

std::string ConfigKey::describe() const {
  std::string out;
  switch (type) {
    case Type::kUnsigned:
      out = std::string(power_of_two ? "power of two " : "integer ") + format_unsigned(min_u) +
            ".." + format_unsigned(max_u);
      break;
    case Type::kSize:
      out = std::string(power_of_two ? "power-of-two size " : "size ") + format_size(min_u) +
            ".." + format_size(max_u);
      break;
    case Type::kNumber:
      out = min_open ? "number above " + format_double(min_d) + ", up to " + format_double(max_d)
                     : "number " + format_double(min_d) + ".." + format_double(max_d);
      break;
    case Type::kText:
      out = "text";
      break;
    case Type::kChoice:
      out = joined(choices, " or ");
      break;
    case Type::kBool:
      out = "true or false";
      break;
    case Type::kChoiceList:
      out = "list of names among " + joined(choices, ", ");
      break;
    case Type::kBitList:
      out = "list of bits 0.." + format_unsigned(max_u) + " or ranges lo-hi";
      break;
  }
  if (!default_from.empty()) return out + ", default `" + default_from + "`";
  if (fallback == nullptr) return out + (optional ? ", optional" : ", required");
  const std::string text = fallback;
  return out + ", default " + (text.empty() ? "\"\"" : text);
}

// ---- ConfigNode ----------------------------------------------------------------------------

ConfigNode::ConfigNode(std::shared_ptr<ConfigItem> item,
                       std::shared_ptr<const std::string> document, std::string path)
    : item_(std::move(item)), document_(std::move(document)), path_(std::move(path)) {}

ConfigNode ConfigNode::load_file(const std::string& file) {
  const std::vector<uint8_t> bytes = read_input_file(file, kMaxFileBytes, "file");
  return load_string(std::string(bytes.begin(), bytes.end()), file);
}

ConfigNode ConfigNode::load_string(const std::string& text, const std::string& name) {
  return ConfigNode(parse(text, name), std::make_shared<const std::string>(name), "");
}

const std::string& ConfigNode::file() const {
  const ConfigOrigin& o = item_->origin;
  const bool from_file =
      o.kind == ConfigOrigin::Kind::kFile || o.kind == ConfigOrigin::Kind::kPreset;
  return from_file ? o.file : *document_;
}

const ConfigOrigin& ConfigNode::origin() const {
  return item_->origin;
}

std::string ConfigNode::where() const {
  const ConfigOrigin& o = item_->origin;
  switch (o.kind) {
    case ConfigOrigin::Kind::kOverride:
      return with_key("command line --set " + o.assignment, path_);
    case ConfigOrigin::Kind::kDefault:
      return with_key(*document_, path_) + " (default)";
    default:
      return with_key(o.line > 0 ? o.file + ":" + std::to_string(o.line) : o.file, path_);
  }
}

void ConfigNode::fail(const std::string& message) const {
  throw ConfigError(where() + ": " + message);
}

bool ConfigNode::is_map() const {
  return item_->type == ConfigItem::Type::kMap;
}
bool ConfigNode::is_sequence() const {
  return item_->type == ConfigItem::Type::kSequence;
}
bool ConfigNode::is_scalar() const {
  return item_->type == ConfigItem::Type::kScalar;
}
bool ConfigNode::is_null() const {
  return item_->type == ConfigItem::Type::kNull;
}

std::string ConfigNode::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

ConfigNode ConfigNode::child(const std::shared_ptr<ConfigItem>& item,
                             const std::string& key) const {
  return ConfigNode(item, document_, child_path(key));
}

bool ConfigNode::has(const std::string& key) const {
  if (!is_map()) return false;
  item_->ask(key);
  ItemPtr c = item_->find(key);
  return c != nullptr && !c->is_default;
}

std::optional<ConfigNode> ConfigNode::find(const std::string& key) const {
  if (!is_map()) {
    if (is_null()) return std::nullopt;
    fail("expected a map with key '" + key + "'");
  }
  item_->ask(key);
  ItemPtr c = item_->find(key);
  if (c == nullptr || c->is_default) return std::nullopt;
  item_->keys_read.insert(key);
  return child(c, key);
}

ConfigNode ConfigNode::at(const std::string& key) const {
  std::optional<ConfigNode> c = find(key);
  if (!c) fail("missing required key '" + child_path(key) + "'");
  return *c;
}

std::vector<std::pair<std::string, ConfigNode>> ConfigNode::entries() const {
  std::vector<std::pair<std::string, ConfigNode>> out;
  if (is_null()) return out;
  if (!is_map()) fail("expected a map");
  for (const ConfigItem::Entry& e : item_->entries) {
    if (e.second->is_default) continue;
    item_->keys_read.insert(e.first);
    out.emplace_back(e.first, child(e.second, e.first));
  }
  return out;
}

void ConfigNode::reject_unknown_keys() const {
  if (!is_map()) return;
  for (const ConfigItem::Entry& e : item_->entries) {
    const ItemPtr& value = e.second;
    if (value->is_default || item_->keys_read.count(e.first) != 0) continue;
    std::string message = "unknown key '" + e.first + "'";
    if (auto near = nearest_word(e.first, item_->keys_asked)) {
      message += " (did you mean '" + *near + "'?)";
    }
    if (value->created) {
      throw ConfigError("command line --set " + value->origin.assignment + ": '" +
                        child_path(e.first) + "' is not a map in the config (" + message + ")");
    }
    ConfigOrigin at_key = value->origin;
    if (value->key_line > 0) at_key.line = value->key_line;
    ConfigNode key_node(std::make_shared<ConfigItem>(), document_, child_path(e.first));
    key_node.item_->origin = at_key;
    key_node.fail(message);
  }
}

ConfigNode ConfigNode::section(const std::string& key) const {
  if (std::optional<ConfigNode> found = find(key)) {
    if (found->is_null()) found->item_->type = ConfigItem::Type::kMap;
    if (!found->is_map()) found->fail("expected a map");
    return *found;
  }
  auto made = std::make_shared<ConfigItem>();
  made->type = ConfigItem::Type::kMap;
  made->is_default = true;
  made->origin.kind = ConfigOrigin::Kind::kDefault;
  if (is_map()) item_->put(key, made);
  return child(made, key);
}

void ConfigNode::note_default(const std::string& key, const std::string& text) const {
  if (!is_map()) return;
  ItemPtr existing = item_->find(key);
  if (existing && !existing->is_default) return;
  auto value = std::make_shared<ConfigItem>();
  value->type = ConfigItem::Type::kScalar;
  value->scalar = text;
  value->is_default = true;
  value->origin.kind = ConfigOrigin::Kind::kDefault;
  item_->put(key, value);
}

std::vector<ConfigNode> ConfigNode::items() const {
  std::vector<ConfigNode> out;
  if (is_null()) return out;
  if (!is_sequence()) fail("expected a list");
  size_t index = 0;
  for (const ItemPtr& i : item_->items) {
    out.push_back(ConfigNode(i, document_, path_ + "[" + std::to_string(index++) + "]"));
  }
  return out;
}

std::string ConfigNode::scalar_text() const {
  if (!is_scalar()) fail("expected a single value");
  return item_->scalar;
}

std::string ConfigNode::as_string() const {
  return scalar_text();
}

bool ConfigNode::as_bool() const {
  const std::string text = scalar_text();
  if (text == "true" || text == "yes" || text == "on" || text == "1") return true;
  if (text == "false" || text == "no" || text == "off" || text == "0") return false;
  fail("expected true or false, got '" + text + "'");
}

uint64_t ConfigNode::as_u64() const {
  const std::string text = scalar_text();
  std::optional<uint64_t> value = parse_u64(text);
  if (!value) fail("expected a non-negative integer below 2^64, got '" + text + "'");
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
  std::optional<double> value = parse_double(scalar_text());
  if (!value) fail("expected a number, got '" + scalar_text() + "'");
  return *value;
}

uint64_t ConfigNode::as_size() const {
  std::optional<uint64_t> value = parse_size(scalar_text());
  if (!value) {
    fail("expected a size below 2^64 (e.g. 4096, 0x1000, 64KiB, 4MiB), got '" + scalar_text() +
         "'");
  }
  return *value;
}

namespace {

// A list item of a kBitList key: a bit number or an inclusive range "lo-hi" of bits.
void read_bits(const ConfigNode& item, uint64_t max_bit, std::vector<uint32_t>& bits) {
  const std::string text = item.as_string();
  const size_t dash = text.find('-');
  std::optional<uint64_t> lo = parse_u64(text.substr(0, dash));
  std::optional<uint64_t> hi = dash == std::string::npos ? lo : parse_u64(text.substr(dash + 1));
  if (!lo || !hi || *lo > *hi || *hi > max_bit) {
    item.fail("expected a bit number or a range 'lo-hi' of bits 0.." + format_unsigned(max_bit) +
              ", got '" + text + "'");
  }
  for (uint64_t bit = *lo; bit <= *hi; ++bit) bits.push_back(static_cast<uint32_t>(bit));
}

// Parses `text` (a default or a value) as `key` declares; false if it is not of the type.
bool parse_as(const ConfigKey& key, const std::string& text, ConfigValue& v) {
  v.text = text;
  switch (key.type) {
    case ConfigKey::Type::kUnsigned:
    case ConfigKey::Type::kSize: {
      const auto u = key.type == ConfigKey::Type::kSize ? parse_size(text) : parse_u64(text);
      if (!u) return false;
      v.u = *u;
      v.d = static_cast<double>(v.u);
      return true;
    }
    case ConfigKey::Type::kNumber: {
      const auto d = parse_double(text);
      if (!d) return false;
      v.d = *d;
      return true;
    }
    case ConfigKey::Type::kBool:
      if (text == "true" || text == "yes" || text == "on" || text == "1") return v.u = 1, true;
      if (text == "false" || text == "no" || text == "off" || text == "0") return v.u = 0, true;
      return false;
    case ConfigKey::Type::kChoice: {
      const auto it = std::find(key.choices.begin(), key.choices.end(), text);
      v.choice = static_cast<size_t>(it - key.choices.begin());
      return it != key.choices.end();
    }
    case ConfigKey::Type::kText:
      return true;
    case ConfigKey::Type::kChoiceList:
    case ConfigKey::Type::kBitList:
      return false;  // lists have no text form here
  }
  return false;
}

}  // namespace

ConfigValue ConfigNode::read(const ConfigKey& key) const {
  std::optional<ConfigNode> node = find(key.name);
  const bool has_default = key.fallback != nullptr;
  if (!node && !has_default && !key.optional) at(key.name);  // fails naming the missing key
  ConfigValue v;
  v.where = node ? node->where() : with_key(*document_, child_path(key.name)) + " (default)";
  if (!node && !has_default) {
    v.absent = true;
    return v;
  }
  if (!node) {
    // A default: parsed as a value would be; the tables' own texts are valid.
    note_default(key.name, key.fallback);
    v.from_default = true;
    if (!parse_as(key, key.fallback, v)) {
      throw std::logic_error("the default '" + std::string(key.fallback) + "' of key '" +
                             key.name + "' is not of its type");
    }
    return v;
  }
  switch (key.type) {
    case ConfigKey::Type::kChoiceList: {
      if (!node->is_sequence()) node->fail("expected a list");
      for (const ConfigNode& item : node->items()) {
        const std::string name = item.as_string();
        if (std::find(key.choices.begin(), key.choices.end(), name) == key.choices.end()) {
          std::string message = "unknown name '" + name + "' (known: " +
                                joined(key.choices, ", ") + ")";
          if (auto near = nearest_word(name, key.choices)) {
            message += "; did you mean '" + *near + "'?";
          }
          item.fail(message);
        }
        v.list.push_back(name);
      }
      v.text = joined(v.list, ", ");
      return v;
    }
    case ConfigKey::Type::kBitList:
      if (!node->is_sequence()) node->fail("expected a list of bits");
      for (const ConfigNode& item : node->items()) read_bits(item, key.max_u, v.bits);
      return v;
    case ConfigKey::Type::kUnsigned:
    case ConfigKey::Type::kSize:
      v.u = key.type == ConfigKey::Type::kSize ? node->as_size() : node->as_u64();
      v.d = static_cast<double>(v.u);
      if (auto error = key.range_error(v.u)) node->fail(*error);
      break;
    case ConfigKey::Type::kNumber:
      v.d = node->as_double();
      if (auto error = key.range_error(v.d, node->as_string())) node->fail(*error);
      break;
    case ConfigKey::Type::kBool:
      v.u = node->as_bool() ? 1 : 0;
      break;
    case ConfigKey::Type::kText:
      break;
    case ConfigKey::Type::kChoice: {
      const std::string text = node->as_string();
      const auto it = std::find(key.choices.begin(), key.choices.end(), text);
      if (it == key.choices.end()) {
        std::string message = "expected " + joined(key.choices, " or ") + ", got '" + text + "'";
        if (auto near = nearest_word(text, key.choices)) {
          message += " (did you mean '" + *near + "'?)";
        }
        node->fail(message);
      }
      v.choice = static_cast<size_t>(it - key.choices.begin());
      break;
    }
  }
  v.text = node->as_string();
  return v;
}

uint64_t ConfigNode::u64_or(const std::string& key, uint64_t fallback) const {
  auto c = find(key);
  if (!c) note_default(key, std::to_string(fallback));
  return c ? c->as_u64() : fallback;
}
double ConfigNode::double_or(const std::string& key, double fallback) const {
  auto c = find(key);
  if (!c) note_default(key, format_double(fallback));
  return c ? c->as_double() : fallback;
}
std::string ConfigNode::string_or(const std::string& key, const std::string& fallback) const {
  auto c = find(key);
  if (!c) note_default(key, fallback);
  return c ? c->as_string() : fallback;
}
bool ConfigNode::bool_or(const std::string& key, bool fallback) const {
  auto c = find(key);
  if (!c) note_default(key, fallback ? "true" : "false");
  return c ? c->as_bool() : fallback;
}
uint64_t ConfigNode::size_or(const std::string& key, uint64_t fallback) const {
  auto c = find(key);
  if (!c) note_default(key, std::to_string(fallback));
  return c ? c->as_size() : fallback;
}

// ---- presets -------------------------------------------------------------------------------

void ConfigNode::merge_presets(const std::string& base_dir) const {
  std::vector<std::string> chain;
  merge_presets_in(base_dir, chain);
}

void ConfigNode::merge_presets_in(const std::string& base_dir,
                                  std::vector<std::string>& chain) const {
  if (is_map() && !item_->merged) {
    ItemPtr preset = item_->find("preset");
    if (preset && !preset->is_default) merge_preset(child(preset, "preset"), base_dir, chain);
  }
  if (is_map()) {
    for (const ConfigItem::Entry& e : item_->entries) {
      child(e.second, e.first).merge_presets_in(base_dir, chain);
    }
  } else if (is_sequence()) {
    for (const ConfigNode& i : items()) i.merge_presets_in(base_dir, chain);
  }
}

std::vector<std::string> preset_search_path() {
  std::vector<std::string> folders;
  if (const char* env = std::getenv("SOCSIM_PRESET_PATH")) {
    std::string list = env;
    for (size_t at = 0; at <= list.size();) {
      const size_t colon = std::min(list.find(':', at), list.size());
      if (colon > at) folders.push_back(list.substr(at, colon - at));
      at = colon + 1;
    }
  }
  for (const char* kind : {"ddr", "npu", "soc"}) {
    folders.push_back(std::string(SOCSIM_CONFIG_DIR) + "/" + kind);
  }
  return folders;
}

namespace {

// `name` in `folder`, also with ".yaml" added when it has no extension; nullopt if neither
// is a file there.
std::optional<std::filesystem::path> preset_in(const std::filesystem::path& folder,
                                               const std::filesystem::path& name) {
  std::error_code ec;
  std::vector<std::filesystem::path> candidates = {folder / name};
  if (!name.has_extension()) candidates.push_back(folder / (name.string() + ".yaml"));
  for (const std::filesystem::path& c : candidates) {
    if (std::filesystem::is_regular_file(c, ec)) return c;
  }
  return std::nullopt;
}

}  // namespace

std::filesystem::path find_preset(const std::string& base_dir, const std::filesystem::path& name) {
  if (auto found = preset_in(base_dir, name)) return *found;
  for (const std::string& folder : preset_search_path()) {
    if (auto found = preset_in(folder, name)) return *found;
  }
  return std::filesystem::path(base_dir) / name;  // not found: its error names this path
}

// The `preset` key itself counts as read only when the section's reader reads it: a section
// that takes no preset then reports it as unknown.
void ConfigNode::merge_preset(const ConfigNode& preset, const std::string& base_dir,
                              std::vector<std::string>& chain) const {
  const ConfigOrigin& o = preset.origin();
  std::filesystem::path path(preset.as_string());
  if (path.empty()) preset.fail("expected the path of a preset file");
  if (path.is_relative()) {
    const bool in_preset = o.kind == ConfigOrigin::Kind::kPreset;
    path = find_preset(in_preset ? folder_of(o.file) : base_dir, path);
  }
  const std::string file = path.lexically_normal().string();
  if (std::find(chain.begin(), chain.end(), file) != chain.end() || chain.size() > 8) {
    preset.fail("preset '" + file + "' includes itself");
  }
  std::optional<ConfigNode> loaded;
  try {
    loaded = load_file(file);
  } catch (const ConfigError& e) {
    // A preset that cannot be read is blamed on the key naming it; errors inside a preset
    // name the preset's own file and line.
    const std::string what = e.what();
    if (what.rfind(file + ": ", 0) == 0) preset.fail("preset " + what);
    throw;
  }
  if (!loaded->is_map()) loaded->fail("a preset must be a map");
  chain.push_back(file);
  loaded->merge_presets_in(folder_of(file), chain);
  chain.pop_back();
  item_->merged = true;
  item_->preset_file = file;
  merge_over(*item_, *loaded->item_);
}

std::string ConfigNode::preset_file() const {
  return item_->preset_file;
}

void ConfigNode::dump(std::ostream& out, bool origins) const {
  dump_item(out, *item_, 0, origins);
}

std::string ConfigNode::dump(bool origins) const {
  std::ostringstream out;
  dump(out, origins);
  return out.str();
}

// ---- overrides -----------------------------------------------------------------------------

void apply_override(const ConfigNode& root, const std::string& assignment) {
  const Assignment a = split_assignment(assignment);
  if (!root.is_map()) throw ConfigError("--set " + assignment + ": the config root is not a map");
  ItemPtr node = root.item_;
  std::string walked;
  for (size_t i = 0; i + 1 < a.keys.size(); ++i) {
    walked += (i ? "." : "") + a.keys[i];
    ItemPtr next = node->find(a.keys[i]);
    if (next == nullptr || next->is_default || next->type == ConfigItem::Type::kNull) {
      auto made = std::make_shared<ConfigItem>();
      made->type = ConfigItem::Type::kMap;
      made->created = next == nullptr || next->is_default;
      made->origin.kind = ConfigOrigin::Kind::kOverride;
      made->origin.assignment = assignment;
      if (next) made->key_line = next->key_line;
      node->put(a.keys[i], made);
      next = made;
    } else if (next->type != ConfigItem::Type::kMap) {
      throw ConfigError("--set " + assignment + ": '" + walked + "' is not a map in the config");
    }
    node = next;
  }
  const std::string path = walked.empty() ? a.keys.back() : walked + "." + a.keys.back();
  ItemPtr existing = node->find(a.keys.back());
  if (existing && !existing->is_default && existing->type == ConfigItem::Type::kMap) {
    throw ConfigError("--set " + assignment + ": '" + path + "' is not a single value");
  }
  // A list replaces a list (or is a new key); over a single value the text stays text.
  const bool list =
      !existing || existing->is_default || existing->type == ConfigItem::Type::kSequence;
  ItemPtr value = override_value(a.value, assignment, list);
  if (existing) value->key_line = existing->key_line;
  node->put(a.keys.back(), value);
}

void resolve_config(const ConfigNode& root, const std::vector<std::string>& overrides,
                    const std::string& base_dir) {
  auto names_preset = [](const std::string& o) {
    const Assignment a = split_assignment(o);
    return a.keys.back() == "preset";
  };
  for (const std::string& o : overrides) {
    if (names_preset(o)) apply_override(root, o);
  }
  root.merge_presets(base_dir);
  for (const std::string& o : overrides) {
    if (!names_preset(o)) apply_override(root, o);
  }
}

}  // namespace socsim
