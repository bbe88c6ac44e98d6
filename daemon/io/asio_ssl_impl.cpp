// SPDX-License-Identifier: MIT
// The one translation unit that compiles Boost.Asio's TLS implementation.
#include <boost/asio/ssl/impl/src.hpp>
