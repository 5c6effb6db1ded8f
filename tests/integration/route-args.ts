/** Loader/action arguments as React Router passes them, for calling a route module directly. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const args = (request: Request, params: Record<string, string> = {}): any => ({
  request,
  params,
  context: {},
  url: new URL(request.url),
  pattern: "",
});
