// One include for Catch2 2.13 (Debian 12) and 3.x (Ubuntu 24.04).
#pragma once
#if JUDGE_CATCH_MAJOR >= 3
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
