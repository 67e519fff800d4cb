#include "listener.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int address_parse(const char *host, int port, struct sockaddr_storage *addr, socklen_t *len)
{
    memset(addr, 0, sizeof *addr);
    struct sockaddr_in *v4 = (struct sockaddr_in *)addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)addr;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((unsigned short)port);
        *len = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((unsigned short)port);
        *len = sizeof *v6;
    } else {
        return -EINVAL;
    }
    return 0;
}

int address_port(const struct sockaddr_storage *addr)
{
    return ntohs(addr->ss_family == AF_INET ? ((const struct sockaddr_in *)addr)->sin_port
                                            : ((const struct sockaddr_in6 *)addr)->sin6_port);
}

int listener_open(const char *host, int port, bool reuse_port, int backlog, int *bound_port)
{
    struct sockaddr_storage addr;
    socklen_t len;
    if (address_parse(host, port, &addr, &len) != 0)
        return -EINVAL;
    int fd = socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    int one = 1;
    // SO_REUSEPORT: workers that each open their own listener on one port
    // get the kernel's connection balancing (issue #21, item 3).
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        (reuse_port && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0) ||
        bind(fd, (struct sockaddr *)&addr, len) != 0 || listen(fd, backlog) != 0 ||
        getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
        int e = errno;
        close(fd);
        return -e;
    }
    *bound_port = address_port(&addr);
    return fd;
}
