// The Catch2 v2 main of accy-frontend-tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
