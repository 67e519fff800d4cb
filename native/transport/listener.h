// A non-blocking listening TCP socket.
#ifndef TRANSPORT_LISTENER_H
#define TRANSPORT_LISTENER_H

#include <stdbool.h>
#include <sys/socket.h>

// host: an IPv4 or IPv6 literal; -EINVAL for anything else.
int address_parse(const char *host, int port, struct sockaddr_storage *addr, socklen_t *len);
int address_port(const struct sockaddr_storage *addr);

// host: an IPv4 or IPv6 literal. Returns the socket, or -errno (-EINVAL for
// a host that is not an address literal). *bound_port gets the port bound
// (the one chosen by the system for port 0).
int listener_open(const char *host, int port, bool reuse_port, int backlog, int *bound_port);

#endif
