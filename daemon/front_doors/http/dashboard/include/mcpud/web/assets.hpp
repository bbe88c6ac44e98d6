// SPDX-License-Identifier: MIT
// The dashboard's files (daemon/front_doors/http/dashboard/www), compiled into mcpud: looked up by URL path,
// with their type and a content hash for caching. Immutable; any thread.
#pragma once

#include <array>
#include <string_view>
#include <utility>

namespace mcpud::web {

struct Asset {
  std::string_view path;          // "/index.html", "/js/app.js"
  std::string_view content_type;  // "text/html; charset=utf-8", ...
  std::string_view etag;          // "\"<md5>\""
  std::string_view body;
};

// The asset served at `path` ("/" is "/index.html"), or null.
const Asset* find_asset(std::string_view path);

// Headers every page response carries: the page loads nothing from elsewhere,
// talks only to its own origin and is never framed by another site.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kSecurityHeaders = {{
    {"Content-Security-Policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
     "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"Referrer-Policy", "no-referrer"},
    {"X-Frame-Options", "DENY"},
}};

}  // namespace mcpud::web
