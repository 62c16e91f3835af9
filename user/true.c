/* user/true.c - exits 0, as POSIX true(1): the smallest program (crt0 + exit_group). */
#include "user/lib/ulib.h"

int main(int argc, char **argv)
{
	return 0;
}
