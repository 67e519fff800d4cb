#include "queue.h"

#include <stdlib.h>
#include <string.h>

struct chunk {
    chunk *next;
    size_t len;
    unsigned char bytes[];
};

bool queue_push(queue *q, const void *data, size_t len)
{
    if (len == 0)
        return true;
    chunk *c = malloc(sizeof *c + len);
    if (!c)
        return false;
    c->next = NULL;
    c->len = len;
    memcpy(c->bytes, data, len);
    if (q->tail)
        q->tail->next = c;
    else
        q->head = c;
    q->tail = c;
    q->bytes += len;
    return true;
}

const unsigned char *queue_peek(const queue *q, size_t *len)
{
    *len = q->head ? q->head->len - q->offset : 0;
    return q->head ? q->head->bytes + q->offset : NULL;
}

void queue_consume(queue *q, size_t len)
{
    q->bytes -= len;
    q->offset += len;
    if (q->offset < q->head->len)
        return;
    chunk *done = q->head;
    q->head = done->next;
    if (!q->head)
        q->tail = NULL;
    q->offset = 0;
    free(done);
}

void queue_clear(queue *q)
{
    while (q->head) {
        chunk *next = q->head->next;
        free(q->head);
        q->head = next;
    }
    q->tail = NULL;
    q->offset = q->bytes = 0;
}
