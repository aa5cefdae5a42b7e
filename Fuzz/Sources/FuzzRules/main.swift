// Starts libFuzzer on LLVMFuzzerTestOneInput (see FuzzDriver.h for why main does it).
import Foundation
import FuzzDriver

var argumentCount = CommandLine.argc
var argumentValues: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
  guard let data else { return 0 }
  return fuzz(data, size)
}
exit(status)
