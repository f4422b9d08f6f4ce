# labrat_embed(OUT_C SYMBOL FILE...)
#
# Generates a C source defining `const struct embed_file SYMBOL[]` (terminated
# by a NULL name) with the contents of each FILE, so the binary carries its SQL
# migrations and the agent's sources without depending on the source tree at
# run time.  struct embed_file is declared in controller/embed.h.
function(labrat_embed out_c symbol)
  set(files ${ARGN})
  add_custom_command(
    OUTPUT ${out_c}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out_c} -DSYMBOL=${symbol}
            "-DFILES=${files}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedRun.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/EmbedRun.cmake
    COMMENT "Embedding ${symbol}"
    VERBATIM)
endfunction()
