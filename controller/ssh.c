/*
 * ssh: placeholder; see ssh.h.
 */
#include "ssh.h"
