# accy_add_kernels(): compiles .accy files into a static library of
# launchers, which links the objects accyc writes into its users, one build
# step per compiler stage, so a build system reruns exactly the stages whose
# input changed. See docs/cmake.md.
#
# Each source runs through seven `accyc stage` commands:
#
#   NAME.accy -> NAME.semantic.mlirbc -> NAME.contract.mlirbc -> ...
#             -> NAME.target.mlirbc + NAME.<target>.{ptx,hsaco,o}
#                                   + NAME.accy.h + NAME.accy.cpp
#
# accyc writes a stage file only when its bytes change, and the Ninja
# generator gives custom commands `restat = 1`: a comment-only edit reruns
# the semantic step, finds its product unchanged and stops there.
include_guard(GLOBAL)
cmake_policy(PUSH)
# cmake_parse_arguments(PARSE_ARGV) keeping empty values.
cmake_policy(VERSION 3.25)
# Ninja reads the semantic step's depfile as accyc writes it. Under the new
# behaviour (CMP0116) CMake appends `cmake -E cmake_transform_depfile` to
# the step, a second process costing about a third of a semantic step;
# accyc writes absolute paths and names the output as Ninja does
# (--depfile-target), which is what the transform would produce.
cmake_policy(SET CMP0116 OLD)

set(ACCY_TARGETS "host;sm_90" CACHE STRING
  "Targets accy_add_kernels() compiles for when TARGETS is not given: host, sm_80, sm_90, gfx90a, gfx942")
set(ACCY_CACHE_DIR "" CACHE PATH
  "Kernel store directory for the memory, kernel and target steps (empty: accyc's own default, $ACCY_CACHE_DIR, $XDG_CACHE_HOME/accy or ~/.cache/accy)")
set(ACCY_REMOTE_CACHE "" CACHE STRING
  "Remote caches for the memory, kernel and target steps, as $ACCY_REMOTE_CACHE takes them: URL[|read-only|timeout=MS...] ... (empty: accyc reads $ACCY_REMOTE_CACHE when the steps run; credentials belong there, not here)")
set(ACCY_LAUNCHER "" CACHE STRING
  "A command put in front of every accyc stage step, as CMAKE_<LANG>_COMPILER_LAUNCHER is (accy_add_kernels' LAUNCHER overrides it)")
# Internal cache entries, so that the functions see them from any directory
# (with add_subdirectory(accy) this file is included in Accy's own).
set(_ACCY_KNOWN_TARGETS host sm_80 sm_90 gfx90a gfx942 CACHE INTERNAL "")
set(_ACCY_STAGES semantic contract tensor dispatch memory kernel target
  CACHE INTERNAL "")

# ---------------------------------------------------------------------------
# accy_add_kernels(<name>
#   SOURCES <file.accy>...
#   [TARGETS <target>...]        default: ${ACCY_TARGETS}
#   [INCLUDE_DIRS <dir>...]      import search path (accyc -I)
#   [NAMESPACE <a::b>]           C++ namespace of the launch functions
#   [OPTIONS <accyc flag>...]    more accyc flags for every stage
#   [LAUNCHER <command>...])     before every stage step; default:
#                                ${ACCY_LAUNCHER}
#
# Creates the static library <name> of the generated launchers. Its usage
# requirements are the generated headers' directory, Accy::runtime and the
# objects accyc writes (device images, host code), which every program using
# <name> links directly. For each source FILE.accy, `#include "FILE.accy.h"`.
# ---------------------------------------------------------------------------
function(accy_add_kernels name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "NAMESPACE"
    "SOURCES;TARGETS;INCLUDE_DIRS;OPTIONS;LAUNCHER")
  _accy_validate_arguments(${name})
  if(NOT ARG_TARGETS)
    set(ARG_TARGETS ${ACCY_TARGETS})
  endif()
  _accy_validate_targets(${name} "${ARG_TARGETS}")
  if(NOT ARG_LAUNCHER)
    set(ARG_LAUNCHER ${ACCY_LAUNCHER})
  endif()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}.accy")
  _accy_check_remote_credentials()
  _accy_write_stage_flags(${name} "${out_dir}")

  set(launchers)
  set(objects)
  set(stems)
  foreach(source IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      NORMALIZE OUTPUT_VARIABLE source)
    cmake_path(GET source STEM LAST_ONLY stem)
    if(stem IN_LIST stems)
      message(FATAL_ERROR "accy_add_kernels(${name}): two sources are named "
        "${stem}.accy; their generated files would collide. Put them in two "
        "accy_add_kernels() libraries, or rename one.")
    endif()
    list(APPEND stems ${stem})
    _accy_add_stage_commands(${name} "${source}" ${stem} "${out_dir}"
      launcher file_objects)
    list(APPEND launchers ${launcher})
    list(APPEND objects ${file_objects})
  endforeach()

  add_library(${name} STATIC ${launchers})
  target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  target_link_libraries(${name} PUBLIC Accy::runtime)
  # accyc's objects are not archived: a link names them by path (and Ninja
  # relinks when one changes), so an edit inside a kernel rewrites
  # F.images.o and relinks the programs, and the archive, whose
  # `ar qc` + `ranlib` cost a third of such a rebuild, stays as it was.
  foreach(object IN LISTS objects)
    target_link_libraries(${name} INTERFACE "$<BUILD_INTERFACE:${object}>")
  endforeach()
  target_compile_features(${name} PUBLIC cxx_std_17)
  set_target_properties(${name} PROPERTIES
    LINKER_LANGUAGE CXX
    ACCY_OUTPUT_DIRECTORY "${out_dir}")
endfunction()

function(_accy_validate_arguments name)
  foreach(unknown IN LISTS ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "accy_add_kernels(${name}): unknown argument "
      "'${unknown}' (expected SOURCES, TARGETS, INCLUDE_DIRS, NAMESPACE, OPTIONS or LAUNCHER)")
  endforeach()
  foreach(keyword IN LISTS ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "accy_add_kernels(${name}): ${keyword} needs a value")
  endforeach()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "accy_add_kernels(${name}): no SOURCES; write "
      "accy_add_kernels(${name} SOURCES kernels/file.accy ...)")
  endif()
  foreach(source IN LISTS ARG_SOURCES)
    if(NOT source MATCHES "\\.accy$")
      message(FATAL_ERROR "accy_add_kernels(${name}): source '${source}' "
        "is not an .accy file")
    endif()
  endforeach()
  if(ARG_NAMESPACE AND NOT ARG_NAMESPACE MATCHES
      "^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*$")
    message(FATAL_ERROR "accy_add_kernels(${name}): NAMESPACE "
      "'${ARG_NAMESPACE}' is not a C++ namespace; write it as a::b")
  endif()
  if(NOT TARGET Accy::accyc OR NOT TARGET Accy::runtime)
    message(FATAL_ERROR "accy_add_kernels(${name}): Accy::accyc and "
      "Accy::runtime are not defined; call find_package(Accy CONFIG REQUIRED) "
      "or add_subdirectory() the Accy source tree first")
  endif()
endfunction()

function(_accy_validate_targets name targets)
  foreach(target IN LISTS targets)
    if(NOT target IN_LIST _ACCY_KNOWN_TARGETS)
      string(REPLACE ";" ", " known "${_ACCY_KNOWN_TARGETS}")
      message(FATAL_ERROR "accy_add_kernels(${name}): unknown target "
        "'${target}' (expected some of: ${known})")
    endif()
  endforeach()
endfunction()

# A password in the ACCY_REMOTE_CACHE cache variable is written into the
# build tree (the steps' flags and build.ninja), where whoever reads the
# build directory reads it: say so once per configuration, without
# repeating it.
function(_accy_check_remote_credentials)
  get_property(warned GLOBAL PROPERTY _ACCY_REMOTE_CREDENTIALS_WARNED)
  if(warned OR NOT ACCY_REMOTE_CACHE MATCHES "://[^/@| ]*:[^/@| ]*@")
    return()
  endif()
  set_property(GLOBAL PROPERTY _ACCY_REMOTE_CREDENTIALS_WARNED TRUE)
  string(REGEX REPLACE "://[^/@| ]*@" "://***@" shown "${ACCY_REMOTE_CACHE}")
  message(WARNING "ACCY_REMOTE_CACHE (${shown}) holds a password, and CMake "
    "writes it into the build tree (the stage steps' flags and build.ninja). "
    "Leave the cache variable empty and set the environment variable "
    "ACCY_REMOTE_CACHE when the build runs (CI's secret store), or give a "
    "token through the URL attribute bearer-token-env=NAME.")
endfunction()

# The accyc flags of each stage go to `<out_dir>/flags/<stage>.txt`, which
# that stage's command depends on. file(GENERATE) rewrites a file only when
# its content changes, so changing TARGETS reruns semantic, dispatch and
# target (whose outputs stop the rebuild where they come out the same), and
# nothing else; changing OPTIONS reruns every stage.
function(_accy_write_stage_flags name out_dir)
  set(include_flags)
  foreach(dir IN LISTS ARG_INCLUDE_DIRS)
    cmake_path(ABSOLUTE_PATH dir BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
      NORMALIZE)
    list(APPEND include_flags -I "${dir}")
  endforeach()
  string(REPLACE ";" "," target_list "${ARG_TARGETS}")
  foreach(stage IN LISTS _ACCY_STAGES)
    set(flags ${ARG_OPTIONS})
    # Every step uses the store: the steps after semantic keep step entries
    # there, and the semantic step fetches them from a remote cache
    # (docs/cache.md). Their files come out the same with any directory.
    if(ACCY_CACHE_DIR)
      list(APPEND flags --cache-dir "${ACCY_CACHE_DIR}")
    endif()
    if(ACCY_REMOTE_CACHE)
      list(APPEND flags --remote-cache "${ACCY_REMOTE_CACHE}")
    endif()
    if(stage STREQUAL "semantic")
      # The targets and the namespace name the later steps' entries, which
      # the semantic step fetches.
      list(APPEND flags ${include_flags} --target ${target_list})
      if(ARG_NAMESPACE)
        list(APPEND flags --namespace ${ARG_NAMESPACE})
      endif()
    elseif(stage STREQUAL "dispatch")
      list(APPEND flags --target ${target_list})
    elseif(stage STREQUAL "target")
      list(APPEND flags --target ${target_list})
      if(ARG_NAMESPACE)
        list(APPEND flags --namespace ${ARG_NAMESPACE})
      endif()
    endif()
    set(_accy_flags_${stage} "${flags}" PARENT_SCOPE)
    string(REPLACE ";" "\n" content "${flags}")
    file(GENERATE OUTPUT "${out_dir}/flags/${stage}.txt" CONTENT "${content}\n")
  endforeach()
endfunction()

# One custom command per stage of `source`; sets `launcher_var` to the
# generated launcher, which the library compiles, and `objects_var` to the
# objects programs link (the images object and the host object).
function(_accy_add_stage_commands name source stem out_dir launcher_var
    objects_var)
  set(input "${source}")
  cmake_path(RELATIVE_PATH source BASE_DIRECTORY "${CMAKE_SOURCE_DIR}"
    OUTPUT_VARIABLE shown_source)
  # Only a command's first word is taken for a target name: behind a
  # launcher the compiler is named by its file.
  set(accyc Accy::accyc)
  if(ARG_LAUNCHER)
    set(accyc ${ARG_LAUNCHER} "$<TARGET_FILE:Accy::accyc>")
  endif()
  foreach(stage IN LISTS _ACCY_STAGES)
    set(output "${out_dir}/${stem}.${stage}.mlirbc")
    set(extra_outputs)
    set(extra_args)
    set(byproducts)
    set(depfile_args)
    if(stage STREQUAL "semantic")
      # The source map sits beside the product; later stages read it only
      # to place failures in the source.
      set(byproducts BYPRODUCTS "${out_dir}/${stem}.srcmap.json")
      set(depfile "${out_dir}/${stem}.semantic.d")
      set(extra_args --depfile "${depfile}")
      if(CMAKE_GENERATOR MATCHES "Ninja")
        # Ninja names an output inside the build tree by its path from
        # the top of it.
        cmake_path(RELATIVE_PATH output BASE_DIRECTORY "${CMAKE_BINARY_DIR}"
          OUTPUT_VARIABLE ninja_output)
        list(APPEND extra_args --depfile-target "${ninja_output}")
      endif()
      set(depfile_args DEPFILE "${depfile}")
    elseif(stage STREQUAL "target")
      _accy_target_outputs(${stem} "${out_dir}" extra_outputs launcher
        objects)
    endif()
    add_custom_command(
      OUTPUT "${output}" ${extra_outputs}
      ${byproducts}
      COMMAND ${accyc} stage ${stage} "${input}" -o "${output}"
              --record "${output}.record.json"
              ${extra_args} ${_accy_flags_${stage}}
      DEPENDS "${input}" "$<TARGET_FILE:Accy::accyc>"
              "${out_dir}/flags/${stage}.txt"
      ${depfile_args}
      COMMENT "Accy ${stage} ${shown_source}"
      VERBATIM)
    set(input "${output}")
  endforeach()
  set(${launcher_var} ${launcher} PARENT_SCOPE)
  set(${objects_var} ${objects} PARENT_SCOPE)
endfunction()

# What the target stage writes besides its stage file: among those, the
# launcher the library compiles and the objects to link.
function(_accy_target_outputs stem out_dir outputs_var launcher_var
    objects_var)
  set(launcher "${out_dir}/${stem}.accy.cpp")
  set(outputs "${out_dir}/${stem}.accy.h" "${launcher}")
  set(objects)
  # The device images are an object of their own, so that an edit inside a
  # kernel changes it and leaves the launcher's source, and its C++ compile,
  # as they were. A file built for the host alone has none.
  set(gpu_targets ${ARG_TARGETS})
  list(REMOVE_ITEM gpu_targets host)
  if(gpu_targets)
    set(images "${out_dir}/${stem}.images.o")
    list(APPEND outputs "${images}")
    list(APPEND objects "${images}")
  endif()
  foreach(target IN LISTS ARG_TARGETS)
    if(target STREQUAL "host")
      set(object "${out_dir}/${stem}.host.o")
      list(APPEND outputs "${object}")
      list(APPEND objects "${object}")
    elseif(target MATCHES "^sm_")
      list(APPEND outputs "${out_dir}/${stem}.${target}.ptx")
    else()
      list(APPEND outputs "${out_dir}/${stem}.${target}.hsaco")
    endif()
  endforeach()
  set(${outputs_var} ${outputs} PARENT_SCOPE)
  set(${launcher_var} ${launcher} PARENT_SCOPE)
  set(${objects_var} ${objects} PARENT_SCOPE)
endfunction()

cmake_policy(POP)
