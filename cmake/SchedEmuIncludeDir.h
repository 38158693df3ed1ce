// Force-included (-include) into runtime/emu/EmuBackend.cpp, which is built
// with -DSCHED_EMU_INCLUDE_DIR=sched_emu_include_dir: the default directory
// of the CUDA emulation headers is this string, defined in its own object of
// the runtime archive (sched_emu_include_dir.cpp.o), so that installing the
// archive can replace it with the installed copy's path (see
// runtime/CMakeLists.txt and SchedInstallRuntime.cmake.in).
extern "C" const char sched_emu_include_dir[];
