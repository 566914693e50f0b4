// The slice of better-sqlite3 the store uses (driver.ts); the optional peer dependency ships no
// types of its own and @types/better-sqlite3 would be one more install for every user.
declare module "better-sqlite3" {
  const Database: new (
    file: string,
    options?: { readonly?: boolean; fileMustExist?: boolean },
  ) => import("./driver.js").SqlDatabase;
  export default Database;
}
