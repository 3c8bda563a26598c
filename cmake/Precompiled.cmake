# Precompiled headers: the Qt and standard headers nearly every translation unit includes are parsed once
# per group, not once per file (measured in docs/build-times.md). Three groups: flightdeck_pch_core
# (cmake/pch_core.h: every library and program below the views, and the fuzz drivers),
# flightdeck_pch_widgets (cmake/pch_widgets.h: the views and the console's window) and flightdeck_pch_tests
# (cmake/pch_core.h again, with the tests' definitions: they are built without QT_NO_CAST_FROM_ASCII and
# QT_USE_QSTRINGBUILDER, which change what Qt's headers declare). FLIGHTDECK_PCH=OFF turns them off (not
# built by scripts/test: a file that forgets an include the group's header makes up for shows only there).
#
# With ccache (scripts/build), the sloppiness its manual asks for precompiled headers is set by the
# launcher; clang also needs its PCH files without a timestamp to be cached.
option(FLIGHTDECK_PCH "Precompile the Qt and standard headers every target includes" ON)

# flightdeck_pch_group(<group> <header> <library>...)
#   a group: an empty library that compiles <header> with the definitions <library>... bring (and the
#   directory's), and nothing else: a target using it may add definitions Qt's headers do not test, but
#   must not lack one of the group's (GCC refuses the header then, -Winvalid-pch says why).
# flightdeck_precompile(<target> FROM <group>)
#   <target> includes <group>'s compiled header first.
function(flightdeck_pch_group group header)
    if(NOT FLIGHTDECK_PCH)
        return()
    endif()
    set(source "${CMAKE_CURRENT_BINARY_DIR}/${group}.cpp")
    if(NOT EXISTS "${source}")  # written once: a new time stamp on every configure would rebuild it
        file(WRITE "${source}" "// The precompiled headers of the group ${group} (cmake/Precompiled.cmake).\n")
    endif()
    add_library(${group} STATIC "${source}")
    set_target_properties(${group} PROPERTIES AUTOMOC OFF)
    target_link_libraries(${group} PRIVATE ${ARGN})
    target_include_directories(${group} PRIVATE ${FLIGHTDECK_ROOT})
    target_precompile_headers(${group} PRIVATE ${header})
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        target_compile_options(${group} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    endif()
endfunction()

function(flightdeck_precompile target how group)
    if(NOT FLIGHTDECK_PCH)
        return()
    endif()
    if(NOT how STREQUAL "FROM")
        message(FATAL_ERROR "flightdeck_precompile(${target} FROM <group>)")
    endif()
    target_precompile_headers(${target} REUSE_FROM ${group})
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    endif()
endfunction()
