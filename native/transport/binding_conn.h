// The connection transport's N-API entries (binding_conn.c).
#ifndef TRANSPORT_BINDING_CONN_H
#define TRANSPORT_BINDING_CONN_H

#include <stdbool.h>

#include <node_api.h>

bool binding_conn_init(napi_env env, napi_value exports);

#endif
