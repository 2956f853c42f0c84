# man.cmake - writes devplan(1) from USAGE.md (dist/usage2man.awk says how).
#
#   cmake -DAWK=awk -DVERSION=0.1.0 -DSOURCE=USAGE.md -DOUTPUT=devplan.1 -P dist/man.cmake
#
# Run by the build whenever USAGE.md or the converter changes. awk reads
# bytes (LC_ALL=C), so that UTF-8 text becomes roff's \[uXXXX] the same way
# under every awk; the page is written whole or not at all.
set(ENV{LC_ALL} C)
execute_process(
  COMMAND ${AWK} -v version=${VERSION} -f ${CMAKE_CURRENT_LIST_DIR}/usage2man.awk
          ${SOURCE} ${SOURCE}
  OUTPUT_FILE ${OUTPUT}.tmp
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  file(REMOVE ${OUTPUT}.tmp)
  message(FATAL_ERROR "usage2man.awk failed on ${SOURCE}: ${status}")
endif()
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
