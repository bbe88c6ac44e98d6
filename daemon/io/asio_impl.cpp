// SPDX-License-Identifier: MIT
// The one translation unit that compiles Boost.Asio's implementation.
#include <boost/asio/impl/src.hpp>
