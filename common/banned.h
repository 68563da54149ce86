/* banned.h — functions that are easy to misuse; using one is a build error.
 * Use snprintf / sb_addf, strtol through parse_long, memcpy with a length. */
#ifndef RL_BANNED_H
#define RL_BANNED_H
#define BANNED(f) sorry_##f##_is_banned_in_runledger
#undef strcpy
#define strcpy(a, b) BANNED(strcpy)
#undef strcat
#define strcat(a, b) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef atoi
#define atoi(s) BANNED(atoi)
#undef gets
#define gets(s) BANNED(gets)
#endif
