// JSON text for reports. Strings that reach a report (file names, YAML text, symbol names,
// messages) may hold bytes that are not UTF-8; nlohmann::json's dump() throws on them by
// default. Here they become U+FFFD, so a report is always written.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace socsim {

inline std::string json_text(const nlohmann::json& value, int indent = -1) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace socsim
