# cmake -DLABRAT=BIN -DOUT=FILE -P ManPage.cmake: writes labrat(1), the
# output of `labrat help --man`, to FILE (through a temporary file, so a
# failed run leaves no half page behind).
execute_process(COMMAND ${LABRAT} help --man
                OUTPUT_FILE ${OUT}.tmp
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${LABRAT} help --man exited ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
