#ifndef PORTOLAN_CLUASHIM_H
#define PORTOLAN_CLUASHIM_H
#include <lua.h>
#endif
