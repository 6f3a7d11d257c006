// The Catch2 v2 main of accy-format-tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
