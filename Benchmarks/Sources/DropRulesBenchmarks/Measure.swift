import Foundation

/// Nanoseconds per operation of `count` operations, timed as one batch.
func measure(_ count: Int, _ body: (Int) -> Void) -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  body(count)
  return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(count)
}

func median(_ values: [Double]) -> Double {
  guard !values.isEmpty else { return 0 }
  return values.sorted()[values.count / 2]
}
