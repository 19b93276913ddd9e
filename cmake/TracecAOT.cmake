# tracec_add_aot_library(<name> MODEL <model.mlir> ENTRIES <entry>...
#                        [CLASS <Name>] [NAMESPACE <ns>] [TARGET_CPU <cpu>]
#                        [THREADS <n>])
#
# Compiles the entries of a trace module at build time, with the `tracec`
# ahead-of-time compiler, into the static library <name> and the header
# <name>.h on its include path: tfcompile's tf_library, without Bazel. The
# library needs only libc and libm, and TracecABI (C, static, no LLVM) where
# the model uses trace.print. TARGET_CPU (tracec --target-cpu) defaults to
# TRACEC_AOT_TARGET_CPU, else "portable": code for x86-64-v3 and
# x86-64-v4, picked at run time; "native" is the building machine's CPU.
# THREADS (tracec --threads) defaults to 1: serial code. Any other count
# (0: OpenMP's default at run time) splits large loops across threads with
# OpenMP, and the library then links LLVM's libomp.
function(tracec_add_aot_library name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "MODEL;CLASS;NAMESPACE;TARGET_CPU;THREADS" "ENTRIES")
  if(NOT ARG_MODEL OR NOT ARG_ENTRIES)
    message(FATAL_ERROR "tracec_add_aot_library(${name}): MODEL and ENTRIES are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tracec_add_aot_library(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET_CPU)
    set(ARG_TARGET_CPU "${TRACEC_AOT_TARGET_CPU}")
  endif()
  if(NOT ARG_TARGET_CPU)
    set(ARG_TARGET_CPU portable)
  endif()
  # The installed package imports the compiler as tracec::tracec; in
  # tracec's own build it is the tracec target.
  if(TARGET tracec::tracec)
    set(compiler tracec::tracec)
  else()
    set(compiler tracec)
  endif()

  get_filename_component(model "${ARG_MODEL}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}_aot")
  set(object "${dir}/${name}.o")
  set(header "${dir}/${name}.h")
  set(args --target-cpu "${ARG_TARGET_CPU}")
  foreach(entry IN LISTS ARG_ENTRIES)
    list(APPEND args --entry "${entry}")
  endforeach()
  if(ARG_CLASS)
    list(APPEND args --class "${ARG_CLASS}")
  endif()
  if(ARG_NAMESPACE)
    list(APPEND args --namespace "${ARG_NAMESPACE}")
  endif()
  if(NOT "${ARG_THREADS}" STREQUAL "" AND NOT "${ARG_THREADS}" STREQUAL "1")
    if(NOT TRACEC_OMP_LIBRARY)
      message(FATAL_ERROR "tracec_add_aot_library(${name}): THREADS ${ARG_THREADS} needs libomp (libomp-22-dev); TRACEC_OMP_LIBRARY is not set")
    endif()
    list(APPEND args --threads "${ARG_THREADS}")
    set(openmp TRUE)
  endif()

  add_custom_command(
    OUTPUT "${object}" "${header}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
    COMMAND ${compiler} "${model}" ${args} -o "${object}" --header "${header}"
    DEPENDS "${model}" ${compiler}
    COMMENT "tracec: compiling ${ARG_ENTRIES} of ${ARG_MODEL}"
    VERBATIM)
  set_source_files_properties("${object}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${name} STATIC "${object}" "${header}")
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${name} PUBLIC "${dir}")
  # trace.print calls tracec_print_tensor. TracecABI is a static C library:
  # a program that does not print takes nothing from it.
  if(TARGET tracec::TracecABI)
    target_link_libraries(${name} PUBLIC tracec::TracecABI)
  elseif(TARGET TracecABI)
    target_link_libraries(${name} PUBLIC TracecABI)
  endif()
  if(openmp)
    target_link_libraries(${name} PUBLIC "${TRACEC_OMP_LIBRARY}")
  endif()
  if(UNIX AND NOT APPLE)
    target_link_libraries(${name} PUBLIC m)
  endif()
endfunction()
