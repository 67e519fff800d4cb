#include "udp.h"

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../transport/listener.h"

int udp_open(const char *host, int port, int *bound_port)
{
    struct sockaddr_storage addr;
    socklen_t len;
    if (address_parse(host, port, &addr, &len) != 0)
        return -EINVAL;
    int fd = socket(addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    int zero = 0;
    // Dual-stack whatever the system's default (net.ipv6.bindv6only), as
    // node:dgram binds '::'.
    if ((addr.ss_family == AF_INET6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero) != 0) ||
        bind(fd, (struct sockaddr *)&addr, len) != 0 || getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    *bound_port = address_port(&addr);
    return fd;
}
