// Schema names (snake_case) as TypeScript names.
export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const pascal = (name: string) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());
