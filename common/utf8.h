/* utf8.h — UTF-8 validity, and JSON strings from text that may not be
 * UTF-8. jansson refuses invalid UTF-8 (json_string returns NULL), and a
 * NULL handed to json_object_set_new drops the key without a word: a
 * description with one Latin-1 byte would vanish from a run record. Input
 * text goes through json_string_lossy instead, which keeps every valid
 * character and replaces each invalid byte with U+FFFD. */
#ifndef RL_UTF8_H
#define RL_UTF8_H
#include <stddef.h>
#include <jansson.h>

/* Length of the valid UTF-8 sequence at s[0..n) (1 to 4), or 0 when s
 * does not start one: a stray continuation byte, a truncated or overlong
 * sequence, a surrogate (U+D800..DFFF) or a code point past U+10FFFF. */
int utf8_sequence_len(const unsigned char *s, size_t n);

/* 1 when all of s[0..n) is valid UTF-8. */
int utf8_valid(const char *s, size_t n);

/* A malloc'd copy of the NUL-terminated s, every invalid byte replaced by
 * U+FFFD; *repaired (may be NULL) says whether any was. For text that must
 * be UTF-8 but stays a C string: a JSON object key, a column name. */
char *utf8_lossy_strdup(const char *s, int *repaired);

/* A JSON string of the NUL-terminated s, every invalid byte replaced by
 * U+FFFD; *repaired (may be NULL) says whether any was. NULL only when s
 * is NULL. */
json_t *json_string_lossy(const char *s, int *repaired);

#endif
