# ctest's docs_reference_up_to_date (docs/CMakeLists.txt): fails when a file
# of docs/reference differs from the one the build generated from the ODS
# sources, or when docs/reference holds a generated page the build no longer
# makes, and says how to refresh it.
#
#   cmake -DGENERATED_DIR=<build>/docs -DCOMMITTED_DIR=<src>/docs/reference
#         -DFILES=TraceOps.md,... -DBUILD_DIR=<build> -P CheckReference.cmake

cmake_minimum_required(VERSION 3.20)

string(REPLACE "," ";" files "${FILES}")

set(stale)
foreach(file IN LISTS files)
  if(NOT EXISTS "${GENERATED_DIR}/${file}")
    message(FATAL_ERROR "${GENERATED_DIR}/${file} does not exist: build "
      "first (cmake --build ${BUILD_DIR}), then run the test again.")
  endif()
  if(NOT EXISTS "${COMMITTED_DIR}/${file}")
    list(APPEND stale "${file} (missing)")
    continue()
  endif()
  file(SHA256 "${GENERATED_DIR}/${file}" generated_hash)
  file(SHA256 "${COMMITTED_DIR}/${file}" committed_hash)
  if(NOT generated_hash STREQUAL committed_hash)
    list(APPEND stale "${file} (differs)")
  endif()
endforeach()

# Every page but the index is generated.
file(GLOB committed RELATIVE "${COMMITTED_DIR}" "${COMMITTED_DIR}/*.md")
foreach(file IN LISTS committed)
  if(NOT file STREQUAL "README.md" AND NOT file IN_LIST files)
    list(APPEND stale "${file} (no longer generated: delete it)")
  endif()
endforeach()

if(stale)
  list(JOIN stale "\n  " stale_list)
  message(FATAL_ERROR
    "docs/reference is out of date with the ODS sources:\n"
    "  ${stale_list}\n"
    "Refresh it with\n"
    "  cmake --build ${BUILD_DIR} --target tracec-update-docs-reference\n"
    "and commit docs/reference.")
endif()
message(STATUS "docs/reference matches the ODS sources "
  "(${GENERATED_DIR}).")
