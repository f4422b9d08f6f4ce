# labrat_module(NAME [DEPS module...] [LIBS pkg...] [EXTRA_SOURCES file...])
#
# Declares controller module NAME (controller/NAME.c + NAME.h) as static
# library lr_NAME linked to the modules it may use.  Modules must be declared
# in dependency order (DESIGN.md: dependencies point downwards only), so a
# module can only name modules declared before it.
#
# At configure time the module's files (NAME.c, NAME.h and private
# NAME_*.c / NAME_*.h) are scanned: every `#include "X.h"` must name the
# module itself, one of its private headers, or a module it reaches through
# DEPS (its NAME.h, or a further public header NAME_WORD.h such as
# store_daemon.h; NAME_int.h stays private to NAME), and third-party
# headers may only be included by a module that lists their package in
# LIBS.  A violation stops the configure step, so the
# dependency direction of DESIGN.md is enforced by the build.

# third-party header prefix -> package name used in LIBS
set(LABRAT_THIRD_PARTY
    "sqlite3.h=sqlite3"
    "libssh2=libssh2"
    "microhttpd.h=mhd"
    "curl/=curl"
    "json-c/=json-c"
    "json.h=json-c")

set(_pkg_sqlite3 PkgConfig::SQLITE3)
set(_pkg_libssh2 PkgConfig::LIBSSH2)
set(_pkg_mhd PkgConfig::MHD)
set(_pkg_curl PkgConfig::CURL)
set(_pkg_json-c PkgConfig::JSONC)
set(_pkg_m ${MATH_LIB})
set(_pkg_threads Threads::Threads)

function(_labrat_closure out)
  set(result "")
  set(todo ${ARGN})
  while(todo)
    list(POP_FRONT todo m)
    if(NOT m IN_LIST result)
      list(APPEND result ${m})
      get_property(d GLOBAL PROPERTY LABRAT_DEPS_${m})
      list(APPEND todo ${d})
    endif()
  endwhile()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# labrat_check_includes(WHO ALLOWED_MODULES ALLOWED_PKGS FILE...)
function(labrat_check_includes who allowed_mods allowed_pkgs)
  foreach(f ${ARGN})
    if(NOT EXISTS ${f})
      continue()
    endif()
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line ${lines})
      if(line MATCHES "#[ \t]*include[ \t]*\"([A-Za-z0-9_]+)\\.h\"")
        set(h ${CMAKE_MATCH_1})
        # A module's private headers (NAME_*.h) are its own business.
        string(REGEX MATCH "^${who}_" private "${h}")
        if(private)
          continue()
        endif()
        # Another module's further public header: MODULE_WORD.h (any word
        # but "int", which is that module's private header), e.g.
        # store_daemon.h of module store.
        set(owner ${h})
        if(h MATCHES "^([a-z]+)_([a-z0-9]+)$" AND NOT CMAKE_MATCH_2 STREQUAL "int")
          set(owner ${CMAKE_MATCH_1})
          if(owner IN_LIST allowed_mods)
            continue()
          endif()
        endif()
        if(NOT h IN_LIST allowed_mods AND NOT h STREQUAL "embed")
          message(FATAL_ERROR "${f}: ${who} includes \"${h}.h\" but does not "
                  "link module ${owner} (see labrat_module DEPS and DESIGN.md)")
        endif()
      elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
        set(h ${CMAKE_MATCH_1})
        foreach(entry ${LABRAT_THIRD_PARTY})
          string(REPLACE "=" ";" kv ${entry})
          list(GET kv 0 prefix)
          list(GET kv 1 pkg)
          string(FIND "${h}" "${prefix}" pos)
          if(pos EQUAL 0 AND NOT pkg IN_LIST allowed_pkgs)
            message(FATAL_ERROR "${f}: ${who} includes <${h}> but does not "
                    "own package ${pkg} (each third-party header belongs to "
                    "one module, STYLE.md rule 3)")
          endif()
        endforeach()
      endif()
    endforeach()
  endforeach()
endfunction()

function(labrat_module name)
  cmake_parse_arguments(M "" "" "DEPS;LIBS;EXTRA_SOURCES" ${ARGN})
  foreach(d ${M_DEPS})
    if(NOT TARGET lr_${d})
      message(FATAL_ERROR "module ${name} depends on ${d}, which is not "
              "declared before it: dependencies must point downwards")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY LABRAT_DEPS_${name} "${M_DEPS}")
  set_property(GLOBAL PROPERTY LABRAT_LIBS_${name} "${M_LIBS}")
  set_property(GLOBAL APPEND PROPERTY LABRAT_MODULES ${name})
  _labrat_closure(allowed ${name})
  # Its own files: NAME.c, NAME.h and any private NAME_*.c / NAME_*.h.
  file(GLOB own ${CMAKE_CURRENT_SOURCE_DIR}/${name}_*.c
                ${CMAKE_CURRENT_SOURCE_DIR}/${name}_*.h)
  labrat_check_includes(${name} "${allowed}" "${M_LIBS}"
    ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c ${CMAKE_CURRENT_SOURCE_DIR}/${name}.h
    ${own})

  add_library(lr_${name} STATIC ${name}.c ${M_EXTRA_SOURCES})
  set_target_properties(lr_${name} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
  target_compile_definitions(lr_${name} PRIVATE _GNU_SOURCE)
  target_include_directories(lr_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                                               ${CMAKE_CURRENT_BINARY_DIR})
  set(links "")
  foreach(d ${M_DEPS})
    list(APPEND links lr_${d})
  endforeach()
  set(pkgs "")
  foreach(p ${M_LIBS})
    list(APPEND pkgs ${_pkg_${p}})
  endforeach()
  target_link_libraries(lr_${name} PUBLIC ${links} ${pkgs})
endfunction()
