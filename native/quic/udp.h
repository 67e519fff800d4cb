// The listener's UDP socket.
#ifndef QUIC_UDP_H
#define QUIC_UDP_H

// A non-blocking UDP socket bound to host:port (an IP literal; '::' takes
// IPv4 too). Returns it or -errno (-EINVAL: not an address literal);
// *bound_port gets the port (the system's choice for 0).
int udp_open(const char *host, int port, int *bound_port);

#endif
