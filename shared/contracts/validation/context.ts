/** What validation needs from outside: which kinds some provider serves (the registry stays outside). */
export interface ValidationContext {
  isServedKind(group: string, kind: string): boolean;
}
