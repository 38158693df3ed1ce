# sched_add_plugin(<target>): compile <target>'s C and C++ sources with the
# sched plugin (-fplugin=<SchedPlugin.so>) and link the sched runtime.
#
#   find_package(sched REQUIRED)          # or add_subdirectory(<sched>)
#   add_executable(app app.cpp)
#   sched_add_plugin(app)                 # after the target's sources are added
#
# - Refuses a compiler other than clang 19 (the plugin is built against clang
#   19's C++ API; any other compiler fails to load it with an undefined
#   symbol), saying what to pass instead.
# - Adds -fplugin=<plugin> to the target's C and C++ compile options.
# - Makes every C/C++ source of the target depend on the plugin file
#   (OBJECT_DEPENDS): rebuilding the plugin recompiles them, and Ninja builds
#   the plugin before compiling them when sched is part of the same build.
# - Links sched::runtime (the runtime archive, its C++ dependencies, and the
#   include directory holding SchedRuntime.h for data scopes).
#
# The plugin file comes from the global property SCHED_PLUGIN_FILE, set by
# schedConfig.cmake (installed package) or by clang-plugin/CMakeLists.txt
# (sched built in the same tree).
function(sched_add_plugin target)
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "sched_add_plugin: '${target}' is not a target")
  endif()
  get_property(plugin GLOBAL PROPERTY SCHED_PLUGIN_FILE)
  if(NOT plugin OR NOT TARGET sched::runtime)
    message(FATAL_ERROR "sched_add_plugin: no sched package here: call find_package(sched REQUIRED) "
                        "or add_subdirectory(<sched source>) first")
  endif()

  # The C and C++ sources of the target (absolute paths) and their languages.
  get_target_property(sources "${target}" SOURCES)
  get_target_property(source_dir "${target}" SOURCE_DIR)
  set(compiled)
  set(languages)
  foreach(source IN LISTS sources)
    if(source MATCHES "^\\$<")
      continue() # a generator expression, e.g. $<TARGET_OBJECTS:...>
    endif()
    if(NOT IS_ABSOLUTE "${source}")
      set(source "${source_dir}/${source}")
    endif()
    get_source_file_property(language "${source}" TARGET_DIRECTORY "${target}" LANGUAGE)
    if(NOT language)
      if(source MATCHES "\\.c$")
        set(language C)
      elseif(source MATCHES "\\.(cpp|cc|cxx|c\\+\\+|C|CPP|cp)$")
        set(language CXX)
      endif()
    endif()
    if(language STREQUAL "C" OR language STREQUAL "CXX")
      list(APPEND compiled "${source}")
      list(APPEND languages ${language})
    endif()
  endforeach()
  if(NOT languages)
    set(languages CXX) # no source yet: check the C++ compiler
  endif()
  list(REMOVE_DUPLICATES languages)

  # The compiler check: the plugin loads only into clang 19.
  foreach(language IN LISTS languages)
    if(language STREQUAL "C")
      set(fix "-DCMAKE_C_COMPILER=clang-19")
    else()
      set(fix "-DCMAKE_CXX_COMPILER=clang++-19")
    endif()
    set(id "${CMAKE_${language}_COMPILER_ID}")
    set(version "${CMAKE_${language}_COMPILER_VERSION}")
    if(NOT id STREQUAL "Clang" OR NOT version MATCHES "^19\\.")
      message(FATAL_ERROR
        "sched_add_plugin(${target}): the sched plugin loads only into clang 19, and "
        "CMAKE_${language}_COMPILER is ${CMAKE_${language}_COMPILER} (${id} ${version}). "
        "Configure with ${fix} (in a new build directory: CMake keeps the compiler of the first configure).")
    endif()
  endforeach()

  target_compile_options("${target}" PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:-fplugin=${plugin}>")
  if(compiled)
    set_property(SOURCE ${compiled} TARGET_DIRECTORY "${target}" APPEND PROPERTY OBJECT_DEPENDS "${plugin}")
  endif()
  if(TARGET SchedPlugin)
    # sched is built in this tree: Makefile generators order targets, not files.
    add_dependencies("${target}" SchedPlugin)
  endif()
  target_link_libraries("${target}" PRIVATE sched::runtime)
endfunction()
