/* Placeholder until the shell lands. */
#include <stdio.h>
int main(void)
{
	puts("devplan");
	return 0;
}
