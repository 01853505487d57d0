# Stand-in for CANN's Ascend C CMake package (asc-config.cmake) in asc2's NPU-backend tests: instead of
# bisheng's ASC language it routes the exported kernel project to its CPU-twin build.
set(ASC2_TWIN ON CACHE BOOL "Built by the stand-in CANN toolkit of asc2's tests" FORCE)
set(ASC_FOUND TRUE)
message(STATUS "asc2 test toolkit: building against the CPU twin (${ASC2_TWIN_DIR})")
