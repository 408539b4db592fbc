#include "engine_reference.h"

#include <string.h>

#include "CDtoa.h"

// `reference.frame.printed` (issue 24): the reference's frame (ref_tick, unchanged) and then the frame event a
// subscriber gets, written as the daemon writes it (SegueDaemon's EventEncoder) with the same number printer
// (CDtoa's cdtoa_json). Per animated property that is the reference's work plus printing its changed values: the
// transform's 6 affine numbers (after the CATransform3DIsAffine test that picks `{a, b, c, d, tx, ty}` over
// `{m: [16]}`) with their keys, or alpha's one number with its key; per view its id (scanned for characters to
// escape, as any JSON string) and the punctuation; per frame the notification's head (seq, scene, type, time).
// Nothing else: no list of changed views to sort, no per-subscriber copy, no socket.

static inline char *put(char *p, const char *text, size_t length) {
    memcpy(p, text, length);
    return p + length;
}

#define PUT(p, literal) put((p), (literal), sizeof(literal) - 1)

// A JSON string's contents: the engine's ids need no escaping, but the scan for '"', '\\' and control characters is
// part of writing any string, so it is done (an id that needs escaping is written as \u00XX, which is enough here:
// the bench's ids never take that branch).
static inline char *put_escaped(char *p, const char *text, size_t length) {
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c == '"' || c == '\\') {
            static const char hex[] = "0123456789abcdef";
            p = PUT(p, "\\u00");
            *p++ = hex[c >> 4];
            *p++ = hex[c & 15];
        } else {
            *p++ = (char)c;
        }
    }
    return p;
}

static inline int is_affine(const double *m) {
    return m[2] == 0 && m[3] == 0 && m[6] == 0 && m[7] == 0 && m[8] == 0 && m[9] == 0 && m[10] == 1 && m[11] == 0
        && m[14] == 0 && m[15] == 1;
}

static char *print_view(char *p, ref_view *v, const char *id, size_t id_length, int first) {
    if (!first) *p++ = ',';
    p = PUT(p, "{\"id\":\"");
    p = put_escaped(p, id, id_length);
    *p++ = '"';
    // In the protocol's property order: alpha (bit 2 here), then transform (bit 1).
    if (v->dirty & 2u) {
        p = PUT(p, ",\"alpha\":");
        p += cdtoa_json(v->alpha, p);
    }
    if (v->dirty & 1u) {
        const double *m = v->transform;
        p = PUT(p, ",\"transform\":");
        if (is_affine(m)) {
            // Each key padded to 8 bytes, copied whole (one fixed-size copy, within the room the caller made) and
            // advanced by its length.
            static const char keys[6][8] = {"{\"a\":", ",\"b\":", ",\"c\":", ",\"d\":", ",\"tx\":", ",\"ty\":"};
            static const unsigned char lengths[6] = {5, 5, 5, 5, 6, 6};
            static const unsigned char channels[6] = {0, 1, 4, 5, 12, 13};
            for (int k = 0; k < 6; k++) {
                memcpy(p, keys[k], 8);
                p += lengths[k];
                p += cdtoa_json(m[channels[k]], p);
            }
            *p++ = '}';
        } else {
            p = PUT(p, "{\"m\":[");
            for (int k = 0; k < 16; k++) {
                if (k > 0) *p++ = ',';
                p += cdtoa_json(m[k], p);
            }
            p = PUT(p, "]}");
        }
    }
    *p++ = '}';
    v->dirty = 0;
    return p;
}

size_t ref_tick_printed(ref_transition *transitions, int count, long long now, const ref_frame_head *head,
                        const ref_view_name *names, char *out) {
    ref_tick(transitions, count, now);
    char *p = out;
    p = PUT(p, "{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":{\"seq\":");
    p += cdtoa_json(head->seq, p);
    p = PUT(p, ",\"scene\":\"");
    p = put_escaped(p, head->scene, head->scene_length);
    p = PUT(p, "\",\"type\":\"frame\",\"time\":");
    p += cdtoa_json(head->time, p);
    p = PUT(p, ",\"views\":[");
    int first = 1;
    for (int i = 0; i < 2 * count; i++) {
        const ref_view_name *name = &names[i];
        ref_view *v = &transitions[name->transition].views[name->view];
        if (v->dirty == 0) continue;
        p = print_view(p, v, name->id, name->id_length, first);
        first = 0;
    }
    p = PUT(p, "]}}");
    return (size_t)(p - out);
}

size_t ref_printed_capacity(const ref_frame_head *head, const ref_view_name *names, int count) {
    // Escaped text takes at most 6 bytes a byte; a view at most its id, 17 numbers and 128 bytes of keys and
    // punctuation; the head at most 2 numbers and 128 bytes.
    size_t bytes = 128 + 6 * head->scene_length + 2 * CDTOA_BUFFER_SIZE + 8;
    for (int i = 0; i < 2 * count; i++) bytes += 6 * names[i].id_length + 17 * (CDTOA_BUFFER_SIZE + 1) + 128;
    return bytes;
}
