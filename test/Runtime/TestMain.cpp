//===- TestMain.cpp - Catch2 main of the runtime unit tests ---------------===//

#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
